// Contracts of this area (filled in by its routes).
export {};
