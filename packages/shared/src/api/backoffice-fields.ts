// Input fields of the back-office API (/api/backoffice/*) beyond the shared ones: yes/no flags, texts per
// language and the news item's translations, declared once for the server's schemas (backoffice.ts, the
// run-time settings) and the console. Nested values (texts per language) arrive in JSON bodies.
import { z } from 'zod';
import type { Language } from '../languages.ts';
import { LANGUAGES } from '../languages.ts';
import { optional, text } from '../schema/fields.ts';

const TRUE = new Set<unknown>([true, 1, '1', 'true']);
const FALSE = new Set<unknown>([false, 0, '0', 'false']);

/** A yes/no value from JSON (true, 1) or a form ("true", "1"). */
export function flag() {
  return z.unknown().transform((value, context): boolean => {
    if (TRUE.has(value)) return true;
    if (FALSE.has(value)) return false;
    context.issues.push({
      code: 'custom',
      message:
        value === undefined || value === null || value === '' ? 'validation.required' : 'validation.one_of',
      params: { values: 'true, false' },
      input: value,
    });
    return z.NEVER;
  });
}

/** An object with an optional text per language, each at most `max` characters. */
export function perLanguage(max: number) {
  const shape = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, optional(text({ min: 0, max, trim: false }))]),
  );
  return z.object(shape).strict() as unknown as z.ZodType<Partial<Record<Language, string>>>;
}

/** Largest news content a language may have (the table allows 200,000 characters). */
export const NEWS_CONTENT_MAX = 200_000;

const translation = z
  .object({
    title: text({ min: 1, max: 300 }),
    abstract: optional(text({ min: 0, max: 2000 })),
    content: optional(text({ min: 0, max: NEWS_CONTENT_MAX, trim: false })),
  })
  .strict();

export type TranslationInput = z.output<typeof translation>;

/** The news item's words per language: at least one language, each with a title. */
export function translations() {
  const shape = Object.fromEntries(LANGUAGES.map((lang) => [lang, translation.optional()]));
  return z
    .object(shape)
    .strict()
    .refine((value) => Object.values(value).some((entry) => entry !== undefined), {
      message: 'backoffice.translation_required',
    }) as unknown as z.ZodType<Partial<Record<Language, TranslationInput>>>;
}

/** An outside https address for a link item (the partner links). */
export function httpsUrl() {
  return text({ max: 500 }).pipe(
    z.string().regex(/^https:\/\/[^\s"'<>]+$/, { message: 'backoffice.link_https' }),
  );
}

/** A six-digit authenticator code. */
export function authenticatorCode() {
  return text({ max: 6 }).pipe(z.string().regex(/^\d{6}$/, { message: 'totp.wrong' }));
}
