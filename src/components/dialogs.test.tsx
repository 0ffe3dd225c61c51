import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import { describe, expect, it, vi } from 'vitest';
import { renderPublic } from '../test/renderPublic';
import { ConfirmDialog } from './ConfirmDialog';
import { PageSizeSelector } from './PageSizeSelector';
import { ResultPopup } from './ResultPopup';
import { SkeletonRows } from './SkeletonRows';

describe('shared dialogs and list controls', () => {
  it("the result popup shows the message and closes with 'Closed'", async () => {
    const onClose = vi.fn();
    renderPublic(<ResultPopup result={{ type: 'error', message: 'File is not download' }} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('File is not download');
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Closed' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('the result popup is closed without a result', () => {
    renderPublic(<ResultPopup result={undefined} onClose={vi.fn()} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('the confirm dialog confirms or cancels, and locks while busy', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    const view = renderPublic(<ConfirmDialog open title="Confirm block user?" onConfirm={onConfirm} onCancel={onCancel} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).toHaveBeenCalledTimes(1);
    view.unmount();
    renderPublic(<ConfirmDialog open busy title="Confirm block user?" onConfirm={onConfirm} onCancel={onCancel} />);
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  });

  it('the page-size selector offers 10, 25, 50 and 100', async () => {
    const onChange = vi.fn();
    renderPublic(<PageSizeSelector value={50} onChange={onChange} />);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Rows per page'));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['10', '25', '50', '100']);
    await user.click(options[3]!);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(100));
  });

  it('skeleton rows fill the asked rows and columns', () => {
    renderPublic(
      <Table>
        <TableBody>
          <SkeletonRows rows={4} columns={3} />
        </TableBody>
      </Table>,
    );
    const rows = screen.getAllByTestId('skeleton-row');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getAllByRole('cell')).toHaveLength(3);
  });

  it('skeleton rows stop after two seconds even while the data is still loading (spec 9)', () => {
    vi.useFakeTimers();
    try {
      renderPublic(
        <Table>
          <TableBody>
            <SkeletonRows rows={4} columns={3} />
          </TableBody>
        </Table>,
      );
      act(() => vi.advanceTimersByTime(1990));
      expect(screen.getAllByTestId('skeleton-row')).toHaveLength(4);
      act(() => vi.advanceTimersByTime(20));
      expect(screen.queryAllByTestId('skeleton-row')).toHaveLength(0);
      expect(within(screen.getByTestId('loading-row')).getByRole('progressbar')).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
