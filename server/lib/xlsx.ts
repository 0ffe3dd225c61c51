import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

export type XlsxColumn = Partial<ExcelJS.Column>;

/**
 * One worksheet (bold header row, then `rows` keyed by the columns' keys) written with exceljs's
 * streaming writer: each row is committed as it arrives, so only the compressed file is held,
 * never all the rows. Returns the .xlsx file.
 */
export async function writeXlsx(sheetName: string, columns: XlsxColumn[], rows: AsyncIterable<Record<string, unknown>>): Promise<Buffer> {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns;
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const row of rows) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}
