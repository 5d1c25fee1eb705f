// Contracts of this area (issue 9). Each exported contract is picked up by ./index.ts.
export {};
