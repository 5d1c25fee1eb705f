/**
 * CSV (RFC 4180) that is safe to open in a spreadsheet: every cell is
 * quoted, quotes doubled, and a cell starting with = + - @ TAB or CR gets a
 * leading single quote so it is never evaluated as a formula.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
