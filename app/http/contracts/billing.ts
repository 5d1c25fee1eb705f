// Contracts of this area (issue 10). Each exported contract is picked up by ./index.ts.
export {};
