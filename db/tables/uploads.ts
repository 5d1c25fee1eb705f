/** Uploaded images and documents, metered usage. */

/** An image uploaded into a project (POST /api/upload/image); the re-encoded bytes live in `blobs`. */
export interface UploadedImagesTable {
  id: string;
  orgId: string;
  projectId: string;
  blobId: string;
  /** image/webp or image/png (what was stored, never what was sent). */
  contentType: string;
  width: number;
  height: number;
  size: number;
  /** The name the client sent, sanitised; informational only. */
  originalName: string;
  uploadedById: string | null;
  createdAt: string;
}

export type UploadMetric = "document_uploads" | "transcription_minutes";

/** One metered use: a processed document (amount 1) or a transcription (amount = minutes). */
export interface UploadUsageTable {
  id: string;
  orgId: string;
  userId: string | null;
  metric: UploadMetric;
  amount: number;
  /** What was processed: the sanitised filename. */
  label: string;
  createdAt: string;
}

// Table interfaces of this area; each is listed in UploadsTables (merged into Database in ../schema.ts).
export interface UploadsTables {
  uploadedImages: UploadedImagesTable;
  uploadUsage: UploadUsageTable;
}
