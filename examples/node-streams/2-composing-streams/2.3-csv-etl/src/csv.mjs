// Parsing one CSV line: comma-separated fields, double-quoted fields may contain commas and "".
// (Quoted fields spanning several lines are out of scope: each record is one line.)

export function parseCsvLine(line) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') { field += '"'; i += 1; } // escaped quote
      else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') { fields.push(field); field = ''; }
    else field += char;
  }
  if (quoted) throw new Error('unterminated quoted field');
  fields.push(field);
  return fields;
}
