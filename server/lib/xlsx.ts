import { EventEmitter, once } from 'node:events';
import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import { writeTempFile, type TempFile } from './temp-file';

export type XlsxColumn = Partial<ExcelJS.Column>;

/** Spreadsheet formats of the exports' date columns (the app shows DD/MM/YYYY, spec 9). */
export const DATE_FORMAT = 'dd/mm/yyyy';
export const DATE_TIME_FORMAT = 'dd/mm/yyyy hh:mm';

/** The writable side of a Node stream as readable-stream 2 (archiver's) keeps it. */
interface BufferingWritable extends EventEmitter {
  _writableState: { needDrain: boolean };
}

const isBufferingWritable = (value: unknown): value is BufferingWritable =>
  value instanceof EventEmitter && typeof (value as { _writableState?: { needDrain?: unknown } })._writableState?.needDrain === 'boolean';

/**
 * Where a worksheet's XML waits to be compressed. exceljs 4.4's streaming writer gives each sheet's
 * stream to archiver, which reads it through a PassThrough of its own (archiver-utils'
 * normalizeInputSource), and exceljs never waits for that PassThrough: rows committed faster than
 * the zip deflates them pile up there uncompressed (measured: about 45 MB for 100,000 audit rows,
 * all of it released only at the end). Waiting for its 'drain' is the backpressure exceljs leaves
 * out. Neither library exposes it, so it is looked up and checked here; a version that moved it
 * fails the export loudly instead of buffering silently.
 */
function compressorInputOf(sheet: ExcelJS.Worksheet): BufferingWritable {
  const sheetStream = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream;
  const input = sheetStream?.pipes?.[0];
  if (!isBufferingWritable(input)) throw new Error('exceljs no longer pipes the worksheet into a stream the export can wait for (server/lib/xlsx.ts)');
  return input;
}

/**
 * One worksheet (bold header row, then `rows` keyed by the columns' keys) written with exceljs's
 * streaming writer straight to a temporary file: each row is committed as it arrives and the next
 * waits while the compressor or the file is behind, so memory holds a few rows and the zip's
 * buffers, never the sheet or the file. Nothing is answered before the file is complete, so a
 * failure is still a clean error answer.
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
      const compressorInput = compressorInputOf(sheet);
      for await (const row of rows) {
        sheet.addRow(row).commit();
        if (compressorInput._writableState.needDrain) await once(compressorInput, 'drain');
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
