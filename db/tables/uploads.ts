/** Uploaded images and documents, metered usage (issue 9). */

// Table interfaces of this area; each is listed in UploadsTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface UploadsTables {}
