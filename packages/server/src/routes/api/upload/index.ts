// POST /api/upload (spec 01 section 7): one image file, multipart; the answer's message is the image's
// address. GET /api/upload/image?id= serves an upload to its owner only (administrators use
// /api/admin/upload). Identity photos are private: never cached, never served as a static file.
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { ok } from '@fairex/shared';
import { uploadImageInput } from '@fairex/shared/api/site.ts';
import {
  findUpload,
  MAX_UPLOAD_BYTES,
  readUploadFile,
  saveUpload,
  uploadAddress,
  uploadIdFrom,
} from '../../../accounts/uploads.ts';
import { AppError } from '../../../http/app-error.ts';
import { route } from '../../../http/route.ts';

/** Multipart errors a client causes, with the message that explains them. */
const MULTIPART_ERRORS: Record<string, ConstructorParameters<typeof AppError>> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: ['upload.not_multipart'],
  FST_REQ_FILE_TOO_LARGE: ['upload.too_large', { megabytes: 4 }],
  FST_FILES_LIMIT: ['upload.no_file'],
  FST_PARTS_LIMIT: ['upload.no_file'],
  FST_FIELDS_LIMIT: ['upload.no_file'],
  FST_PROTO_VIOLATION: ['upload.no_file'],
  FST_MP_PREMATURE_CLOSE: ['upload.no_file'],
};

/**
 * Everything that can fail while the multipart parser reads the request body is the body's fault: the limits
 * above have codes; a malformed body ("Unexpected end of multipart data", a part without headers) comes as a
 * plain error from the parser, and is refused as not being a file upload.
 */
function translateMultipartError(error: unknown): never {
  const code = (error as { code?: string }).code;
  const known = code === undefined ? undefined : MULTIPART_ERRORS[code];
  throw new AppError(...(known ?? (['upload.not_multipart'] as const)));
}

export default async function uploadRoutes(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
  });

  route(app, {
    method: 'POST',
    url: '/upload',
    auth: 'required',
    handler: async ({ request, user }) => {
      if (!request.isMultipart()) throw new AppError('upload.not_multipart');
      let data: Buffer;
      try {
        const file = await request.file();
        if (!file) throw new AppError('upload.no_file');
        data = await file.toBuffer();
      } catch (error) {
        if (error instanceof AppError) throw error;
        translateMultipartError(error);
      }
      const upload = await saveUpload(app.store, app.accounts.dataDir, user.id, data);
      return ok(uploadAddress(upload.id));
    },
  });

  route(app, {
    method: 'GET',
    url: '/upload/image',
    auth: 'required',
    input: uploadImageInput,
    handler: async ({ input, user, reply }) => {
      const id = uploadIdFrom(input.id);
      const upload = id === null ? null : await findUpload(app.store, id);
      // Someone else's image is answered exactly like one that does not exist.
      if (!upload || upload.user_id !== user.id) throw new AppError('upload.not_found');
      const data = await readUploadFile(app.accounts.dataDir, upload);
      return reply
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .type(upload.mime_type)
        .send(data);
    },
  });
}
