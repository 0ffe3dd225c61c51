import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import { writeTempFile, type TempFile } from './temp-file';

export type XlsxColumn = Partial<ExcelJS.Column>;

/**
 * One worksheet (bold header row, then `rows` keyed by the columns' keys) written with exceljs's
 * streaming writer straight to a temporary file: each row is committed as it arrives and waits
 * while the file is behind, so memory holds a few rows and the compressor's window, never the
 * sheet or the file. Nothing is answered before the file is complete, so a failure is still a
 * clean error answer.
 */
export async function writeXlsxFile(fileName: string, sheetName: string, columns: XlsxColumn[], rows: AsyncIterable<Record<string, unknown>>): Promise<TempFile> {
  return writeTempFile(fileName, async (file) => {
    const stream = createWriteStream(file, { mode: 0o600 });
    const closed = once(stream, 'close');
    // A write error rejects `closed`; it is awaited below, after the rows (no unhandled rejection meanwhile).
    closed.catch(() => undefined);
    try {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
      const sheet = workbook.addWorksheet(sheetName);
      sheet.columns = columns;
      sheet.getRow(1).font = { bold: true };
      sheet.getRow(1).commit();
      for await (const row of rows) {
        sheet.addRow(row).commit();
        if (stream.writableNeedDrain) await once(stream, 'drain');
      }
      sheet.commit();
      await workbook.commit();
    } catch (error) {
      stream.destroy();
      throw error;
    }
    await closed;
  });
}
