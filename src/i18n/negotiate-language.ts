import type { Language } from './message-catalogue';

export const SUPPORTED_LANGUAGES: readonly Language[] = ['en', 'zh', 'es', 'fr', 'de', 'ja', 'pt'];

/** `zh-CN`, ` ZH_cn ` → `zh`; unsupported → undefined (docs/behaviour/http.md#languages `normalize_agui_language`). */
export function normalizeLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string') return undefined;
  const tag = value.trim().toLowerCase().replace(/_/g, '-').split('-')[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(tag) ? (tag as Language) : undefined;
}

/**
 * Accept-Language negotiation of docs/behaviour/http.md#languages: highest q wins, ties go to the earliest, q=0 (and
 * unparsable or out-of-range q) excluded, `*` means the process default. Pure.
 */
export function negotiateLanguage(acceptLanguage: string | undefined, processDefault: string): Language {
  const fallback = normalizeLanguage(processDefault) ?? 'en';
  let best: { language: Language; q: number } | undefined;
  for (const item of (acceptLanguage ?? '').split(',')) {
    const [rawTag, ...params] = item.split(';');
    const tag = rawTag.trim();
    if (!tag) continue;
    const qParam = params.map((p) => p.split('=')).find(([name]) => name.trim().toLowerCase() === 'q');
    const q = qParam ? Number(qParam[1]?.trim()) : 1;
    if (!Number.isFinite(q) || q <= 0 || q > 1) continue;
    const language = tag === '*' ? fallback : normalizeLanguage(tag);
    if (language && (!best || q > best.q)) best = { language, q };
  }
  return best?.language ?? fallback;
}

/** Precedence: forwardedProps.iacCode.preferredLanguage > Accept-Language > process default. */
export function requestLanguage(
  preferred: unknown,
  acceptLanguage: string | undefined,
  processDefault: string,
): Language {
  return normalizeLanguage(preferred) ?? negotiateLanguage(acceptLanguage, processDefault);
}
