import FileDownload from '@mui/icons-material/FileDownload';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { Result } from '../../components/ResultPopup';
import { downloadBase64 } from './downloadBase64';

/**
 * An Excel export: fetches the file, saves it as `fileName` and reports 'File is download
 * successfully' or 'File is not download' (spec 8). Disabled when the role may not export.
 */
export function ExportButton(props: { fileName: string; load: () => Promise<{ fileBase64String: string }>; allowed: boolean; onResult: (result: Result) => void }) {
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const file = await props.load();
      downloadBase64(file.fileBase64String, props.fileName);
      props.onResult({ type: 'success', message: translate('app.ui.export.succeeded') });
    } catch {
      props.onResult({ type: 'error', message: translate('app.ui.export.failed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<FileDownload />} disabled={!props.allowed || busy} onClick={() => void run()}>
      {translate('app.lists.export')}
    </Button>
  );
}
