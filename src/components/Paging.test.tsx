import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderPublic } from '../test/renderPublic';
import { Paging } from './Paging';
import { pageItems, totalPages } from './paging';

describe('pageItems', () => {
  it('lists every page up to five', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('shows at most five numbers, the first and the last, with ellipses', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 'gap-end', 20]);
    expect(pageItems(10, 20)).toEqual([1, 'gap-start', 9, 10, 11, 'gap-end', 20]);
    expect(pageItems(20, 20)).toEqual([1, 'gap-start', 17, 18, 19, 20]);
    expect(pageItems(3, 6)).toEqual([1, 2, 3, 4, 'gap-end', 6]);
    expect(pageItems(5, 6)).toEqual([1, 'gap-start', 3, 4, 5, 6]);
  });

  it('rounds total pages up', () => {
    expect(totalPages(0, 50)).toBe(1);
    expect(totalPages(50, 50)).toBe(1);
    expect(totalPages(51, 50)).toBe(2);
  });
});

describe('<Paging>', () => {
  it('renders the numbers of the current window and reports the clicked page', () => {
    const onPageChange = vi.fn();
    renderPublic(<Paging page={10} pageSize={10} totalCount={200} onPageChange={onPageChange} />);
    const numbers = screen.getAllByRole('button', { name: /^Page \d+$/ }).map((button) => button.textContent);
    expect(numbers).toEqual(['1', '9', '10', '11', '20']);
    expect(screen.getByRole('button', { name: 'Page 10' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByText('…')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Page 20' }));
    expect(onPageChange).toHaveBeenLastCalledWith(20);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange).toHaveBeenLastCalledWith(11);
  });

  it('disables previous on the first page and next on the last', () => {
    renderPublic(<Paging page={1} pageSize={50} totalCount={50} onPageChange={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });
});
