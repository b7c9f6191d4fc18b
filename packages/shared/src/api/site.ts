// The small site calls (the home figures, QR codes, uploads): their input schemas, declared once for the
// server that validates with them and the clients.
import { z } from 'zod';
import { integer, optional, text } from '../schema/fields.ts';
import { lengthBetween } from './account-fields.ts';

/** GET /stats/activity: how many of the latest entries (1-20). */
export const statsActivityInput = z.object({ limit: optional(integer({ min: 1, max: 20 })) });

/** Longer texts make codes too dense to scan from a screen; a deposit address or a link fits easily. */
export const QR_TEXT_MAX = 512;

/** /qr_create: the text to draw, kept as given (not trimmed). */
export const qrInput = z.object({ text: text({ max: QR_TEXT_MAX, trim: false }) });

/** GET /upload/image: an upload address as `upload` answered it, or the bare id. */
export const uploadImageInput = z.object({ id: lengthBetween(1, 200) });
