// A data file's schema as a brief shows it: one line per field (name, type, required, description),
// nested objects indented. Shorter than the JSON Schema (`schema show` prints that) and drawn from it.
import { findSchemaEntry, toJsonSchema } from '../../content-schemas/index.ts';

type JsonSchema = Record<string, unknown>;

/** The outline of the schema `name` (`schema list`): its file, then one line per field. */
export function schemaOutline(name: string): string {
  const entry = findSchemaEntry(name);
  if (entry === undefined) throw new Error(`no schema named ${name}`);
  const schema = toJsonSchema(entry);
  return [`Schema \`${name}\` (${entry.file}; whole: codelabgen schema show ${name}):`, ...fieldLines(schema, '')].join(
    '\n',
  );
}

function fieldLines(schema: JsonSchema, indent: string): string[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).flatMap(([name, field]) => {
    const description = typeof field.description === 'string' ? `: ${field.description}` : '';
    const line = `${indent}- ${name} (${typeOf(field)}${required.has(name) ? ', required' : ''})${description}`;
    const items = field.items as JsonSchema | undefined;
    const nested = field.type === 'object' ? field : items?.type === 'object' ? items : null;
    return nested ? [line, ...fieldLines(nested, `${indent}  `)] : [line];
  });
}

function typeOf(field: JsonSchema): string {
  if (Array.isArray(field.enum)) return `one of ${field.enum.map((value) => JSON.stringify(value)).join('|')}`;
  if (field.const !== undefined) return JSON.stringify(field.const);
  if (field.type === 'array') {
    const items = (field.items ?? {}) as JsonSchema;
    return `list of ${items.type === 'object' ? 'objects' : typeOf(items)}`;
  }
  if (Array.isArray(field.anyOf)) return (field.anyOf as JsonSchema[]).map((option) => typeOf(option)).join(' or ');
  if (typeof field.type === 'string') return field.type === 'integer' ? 'integer' : field.type;
  if (Array.isArray(field.type)) return field.type.join(' or ');
  return 'any';
}
