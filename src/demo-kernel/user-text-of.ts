/** The text of an A2A 1.0 message in wire JSON: its `text` parts joined, other parts ignored. */
export function userTextOf(message: unknown): string {
  const parts = (message as { parts?: unknown })?.parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part: unknown) => (part as { text?: unknown })?.text)
    .filter((text): text is string => typeof text === 'string')
    .join('');
}
