import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPublic } from '../test/renderPublic';
import { CodeInput } from './CodeInput';

const box = (n: number) => screen.getByLabelText(`Digit ${n} of 6`) as HTMLInputElement;
const values = () => [1, 2, 3, 4, 5, 6].map((n) => box(n).value);

describe('<CodeInput>', () => {
  it('keeps digits only, moves to the next box, and completes once at the sixth digit', async () => {
    const onComplete = vi.fn();
    renderPublic(<CodeInput onComplete={onComplete} />);
    const user = userEvent.setup();
    await user.click(box(1));
    await user.keyboard('1a2-3');
    expect(values()).toEqual(['1', '2', '3', '', '', '']);
    expect(box(4)).toHaveFocus();
    expect(onComplete).not.toHaveBeenCalled();
    await user.keyboard('456');
    expect(values()).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(onComplete).toHaveBeenCalledWith('123456');
  });

  it('fills every box from a paste (non-digits dropped) and completes', () => {
    const onComplete = vi.fn();
    renderPublic(<CodeInput onComplete={onComplete} />);
    fireEvent.paste(box(1), { clipboardData: { getData: () => ' 98-76 54 ' } });
    expect(values()).toEqual(['9', '8', '7', '6', '5', '4']);
    expect(onComplete).toHaveBeenCalledWith('987654');
  });

  it('backspace on an empty box clears the previous one', async () => {
    const onComplete = vi.fn();
    renderPublic(<CodeInput onComplete={onComplete} />);
    const user = userEvent.setup();
    await user.click(box(1));
    await user.keyboard('12');
    await user.keyboard('{Backspace}');
    expect(values()).toEqual(['1', '', '', '', '', '']);
    expect(box(2)).toHaveFocus();
    expect(onComplete).not.toHaveBeenCalled();
  });
});
