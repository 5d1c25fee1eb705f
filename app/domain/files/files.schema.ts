import { z } from "zod/v4";

/** Project file upload limit (docs/files.md). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILENAME_LENGTH = 200;
export const MAX_FOLDER_NAME_LENGTH = 100;

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const emptyToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);
const id = z.string().trim().min(1).max(100);

/** Control characters (C0, DEL, C1) and bidirectional overrides that can disguise a name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters in names is the point.
export const UNSAFE_NAME_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const folderName = z
  .string({ error: "Name is required" })
  .transform((s) => s.normalize("NFC").trim())
  .pipe(
    z
      .string()
      .min(1, "Name is required")
      .max(MAX_FOLDER_NAME_LENGTH, `Name must be at most ${MAX_FOLDER_NAME_LENGTH} characters`)
      .refine((s) => !new RegExp(UNSAFE_NAME_CHARS.source).test(s), "Name may not contain control characters")
      .refine((s) => !/[/\\]/.test(s), "Name may not contain / or \\")
      .refine((s) => s !== "." && s !== "..", "Name may not be . or .."),
  );

/** GET /files: `folderId` narrows the files to one folder; `root` means files outside any folder. */
export const listFilesQuery = z.object({
  folderId: z.preprocess(emptyToUndefined, id.optional()),
});
export type ListFilesQuery = z.infer<typeof listFilesQuery>;

/** The text fields of the multipart upload (the file itself arrives as a part). */
export const uploadFieldsSchema = z.object({
  folderId: z.preprocess(emptyToUndefined, id.optional()),
});
export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/** Documentation of the multipart body (the route parses it with parseMultipart). */
export const uploadBodyDoc = z.object({
  file: z.string().meta({ format: "binary", description: `The file, at most ${MAX_FILE_BYTES} bytes (10 MB)` }),
  folderId: z.string().optional().meta({ description: "A folder of the same project; omit for the project root" }),
});

export const createFolderSchema = z.object({
  name: folderName,
  parentId: z.preprocess(emptyToNull, id.nullable()).optional(),
});
export type CreateFolderInput = z.infer<typeof createFolderSchema>;

export const updateFolderSchema = z
  .object({
    name: folderName.optional(),
    /** null (or "") moves the folder to the project root. */
    parentId: z.preprocess(emptyToNull, id.nullable()).optional(),
  })
  .refine((v) => v.name !== undefined || v.parentId !== undefined, {
    message: "Send name and/or parentId",
    path: ["name"],
  });
export type UpdateFolderInput = z.infer<typeof updateFolderSchema>;
