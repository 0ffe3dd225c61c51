import FileDownload from '@mui/icons-material/FileDownload';
import Button from '@mui/material/Button';
import { useMutation } from '@tanstack/react-query';
import { useCanAccess, useTranslate } from 'ra-core';
import { useResultPopup } from '../ResultPopupProvider';
import { downloadBase64 } from './downloadBase64';

/**
 * An Excel export of the list's resource: fetches the file, saves it as `fileName` and reports
 * 'File is download successfully' or 'File is not download' (spec 8). Disabled unless
 * `canAccess(resource, 'export')`.
 */
export function ExportButton({ fileName, exportFile }: { fileName: string; exportFile: () => Promise<{ fileBase64String: string }> }) {
  const translate = useTranslate();
  const showResult = useResultPopup();
  const { canAccess } = useCanAccess({ action: 'export' });
  const { mutate, isPending } = useMutation({
    mutationFn: exportFile,
    onSuccess: (file) => {
      downloadBase64(file.fileBase64String, fileName);
      showResult({ type: 'success', message: translate('app.ui.export.succeeded') });
    },
    onError: () => showResult({ type: 'error', message: translate('app.ui.export.failed') }),
  });
  return (
    <Button variant="outlined" startIcon={<FileDownload />} disabled={canAccess !== true || isPending} onClick={() => mutate()}>
      {translate('app.lists.export')}
    </Button>
  );
}
