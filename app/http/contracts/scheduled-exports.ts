/** Contracts of this area (issue 11). */
export {};
