/**
 * The form a pending interrupt needs, read from its `responseSchema` (docs/behaviour/run-input.md#envelope;
 * the gateway's schemas are built in src/interrupts/response-schemas.ts): an `enum` property becomes one
 * button per value, `oneOf` branches with a `const` become a choice list, and a branch with a plain string
 * property (`freeText`) becomes a text field. Anything else falls back to a JSON text area, so an unknown
 * schema can still be answered by hand. Pure: no DOM.
 */

export interface ResponseChoice {
  readonly label: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

export type ResponseForm =
  | { readonly kind: 'buttons'; readonly choices: readonly ResponseChoice[] }
  | {
      readonly kind: 'choices';
      readonly choices: readonly ResponseChoice[];
      /** The property a typed answer goes in, when the schema allows one. */
      readonly freeTextField?: string;
    }
  | { readonly kind: 'json' };

type JsonObject = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `metadata.standardOptions` ({id, title}[]) as a lookup, so buttons read "Allow once" instead of "allow_once". */
export function optionTitles(metadata: unknown): ReadonlyMap<string, string> {
  const titles = new Map<string, string>();
  const options = isObject(metadata) ? metadata.standardOptions : undefined;
  if (!Array.isArray(options)) return titles;
  for (const option of options) {
    if (isObject(option) && typeof option.id === 'string' && typeof option.title === 'string') {
      titles.set(option.id, option.title);
    }
  }
  return titles;
}

function properties(schema: JsonObject): [string, JsonObject][] {
  return isObject(schema.properties)
    ? Object.entries(schema.properties).filter((entry): entry is [string, JsonObject] => isObject(entry[1]))
    : [];
}

/** `{type: object, properties: {decision: {enum: [...]}}}` with that one property: one button per value. */
function enumButtons(schema: JsonObject, titles: ReadonlyMap<string, string>): ResponseForm | undefined {
  const props = properties(schema);
  if (props.length !== 1) return undefined;
  const [name, property] = props[0];
  if (!Array.isArray(property.enum) || property.enum.length === 0) return undefined;
  const choices = property.enum.map((value: unknown) => ({
    label: (typeof value === 'string' ? titles.get(value) : undefined) ?? String(value),
    payload: { [name]: value },
  }));
  return { kind: 'buttons', choices };
}

/** One closed branch per option (`{selectedId: {const}}`) and optionally one free-text branch. */
function oneOfChoices(branches: unknown[], titles: ReadonlyMap<string, string>): ResponseForm | undefined {
  const choices: ResponseChoice[] = [];
  let freeTextField: string | undefined;
  for (const branch of branches) {
    const props = isObject(branch) ? properties(branch) : [];
    if (props.length !== 1) return undefined;
    const [name, property] = props[0];
    if ('const' in property) {
      const value = property.const;
      const title = typeof property.title === 'string' ? property.title : undefined;
      const label = title ?? (typeof value === 'string' ? titles.get(value) : undefined) ?? String(value);
      choices.push({ label, payload: { [name]: value } });
    } else if (property.type === 'string' && freeTextField === undefined) {
      freeTextField = name;
    } else {
      return undefined;
    }
  }
  if (choices.length === 0 && freeTextField === undefined) return undefined;
  return freeTextField === undefined
    ? { kind: 'choices', choices }
    : { kind: 'choices', choices, freeTextField };
}

export function describeResponseSchema(schema: unknown, metadata?: unknown): ResponseForm {
  if (!isObject(schema)) return { kind: 'json' };
  const titles = optionTitles(metadata);
  const form = Array.isArray(schema.oneOf) ? oneOfChoices(schema.oneOf, titles) : enumButtons(schema, titles);
  return form ?? { kind: 'json' };
}
