import { z } from "zod/v4";
import { createFolderSchema, listFilesQuery, updateFolderSchema, uploadBodyDoc } from "~/domain/files/files.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Files and folders";
const params = z.object({ projectId: z.string() });
const fileParams = z.object({ projectId: z.string(), fileId: z.string() });
const folderParams = z.object({ projectId: z.string(), folderId: z.string() });

export const fileShape = z.object({
  id: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number(),
  folderId: z.string().nullable(),
  uploadedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  downloadUrl: z.string(),
});

export const folderShape = z.object({
  id: z.string(),
  name: z.string(),
  parentId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const readNote = " Anyone who can read the project may call it.";
const editNote = " Needs edit access to the project (403 FORBIDDEN for readers).";

export const listFiles = contract({
  method: "GET",
  path: "/api/projects/{projectId}/files",
  tag,
  summary: "List the project's files and folders",
  description:
    "`files` are sorted by filename (case-insensitive); `folders` is every folder of the project, flat, each naming its `parentId` (null at the root), so a client can build the tree from one call. `folderId` narrows `files` to one folder (not its subfolders); `folderId=root` lists the files outside any folder. An unknown `folderId` is 400." +
    readNote,
  auth: "user",
  params,
  query: listFilesQuery,
  response: z.object({ files: z.array(fileShape), folders: z.array(folderShape) }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const uploadFile = contract({
  method: "POST",
  path: "/api/projects/{projectId}/files",
  tag,
  summary: "Upload a file (multipart/form-data, field `file`, max 10 MB)",
  description:
    "Send `multipart/form-data` with the file in the field `file` and optionally `folderId` (a folder of the same project; omitted or empty = project root). A file over 10 MB is refused with 413 PAYLOAD_TOO_LARGE while it is being read, and nothing is stored. Any other body type is 415 UNSUPPORTED_MEDIA_TYPE. The filename is reduced to its last path segment, stripped of control characters and cut to 200 characters; the content type is taken from the part (default application/octet-stream). Files with the same name may coexist; each has its own id." +
    editNote,
  auth: "user",
  params,
  requestType: "multipart",
  body: uploadBodyDoc,
  successStatus: 201,
  response: z.object({ file: fileShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
});

export const downloadFile = contract({
  method: "GET",
  path: "/api/projects/{projectId}/files/{fileId}",
  tag,
  summary: "Download a file's bytes",
  description:
    "An addition to the published interface: the bytes exactly as uploaded, with `Content-Type` (types a browser could render or run — HTML, SVG, XML, JavaScript — are sent as application/octet-stream), `Content-Length`, `Content-Disposition: attachment; filename*=UTF-8''<name>` (plus an ASCII `filename` fallback), `X-Content-Type-Options: nosniff` and an `ETag` (the SHA-256 of the bytes; `If-None-Match` gets 304). Errors are JSON as usual." +
    readNote,
  auth: "user",
  params: fileParams,
  responseType: "*/*",
  etag: { ifNoneMatch: true },
  errors: ["NOT_FOUND"],
});

export const deleteFile = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/files/{fileId}",
  tag,
  summary: "Delete a file",
  description: "The stored bytes are removed with it." + editNote,
  auth: "user",
  params: fileParams,
  response: success,
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const listFolders = contract({
  method: "GET",
  path: "/api/projects/{projectId}/folders",
  tag,
  summary: "List the project's folders (flat, each with its parentId)",
  description: "Sorted by name (case-insensitive)." + readNote,
  auth: "user",
  params,
  response: z.object({ folders: z.array(folderShape) }),
  errors: ["NOT_FOUND"],
});

export const createFolder = contract({
  method: "POST",
  path: "/api/projects/{projectId}/folders",
  tag,
  summary: "Create a folder",
  description:
    "`name` 1–100 characters (trimmed; no control characters, `/` or `\\`); `parentId` a folder of the same project (omit or null for the root, else 400). Names are unique among siblings ignoring case: 409 CONFLICT." +
    editNote,
  auth: "user",
  params,
  body: createFolderSchema,
  successStatus: 201,
  response: z.object({ folder: folderShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const updateFolder = contract({
  method: "PATCH",
  path: "/api/projects/{projectId}/folders/{folderId}",
  tag,
  summary: "Rename and/or move a folder",
  description:
    "`name` renames; `parentId` moves (null = to the root). Moving a folder into itself or one of its subfolders is 400 VALIDATION_ERROR; a `parentId` that is not a folder of this project is 400; a sibling with the same name (ignoring case) at the destination is 409 CONFLICT." +
    editNote,
  auth: "user",
  params: folderParams,
  body: updateFolderSchema,
  response: z.object({ folder: folderShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "CONFLICT"],
});

export const deleteFolder = contract({
  method: "DELETE",
  path: "/api/projects/{projectId}/folders/{folderId}",
  tag,
  summary: "Delete a folder and its subfolders; their files move to the project root",
  description:
    "Files are never deleted with a folder: every file in the folder or any subfolder is moved to the project root. `movedFiles` says how many." + editNote,
  auth: "user",
  params: folderParams,
  response: z.object({ success: z.literal(true), movedFiles: z.number() }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});
