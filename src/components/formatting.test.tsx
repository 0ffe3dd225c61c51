import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPublic } from '../test/renderPublic';
import { formatDate, formatMonth, formatTime } from './formatDate';
import { ageInput, ageNumber, capitalizeWords, hasPhoneNumber, phoneWithDialCode } from './formInput';
import { UsdtAmount } from './UsdtAmount';

describe('formatDate', () => {
  it('writes DD/MM/YYYY', () => {
    expect(formatDate('2025-03-07T10:20:00')).toBe('07/03/2025');
    expect(formatDate(new Date(2024, 11, 31))).toBe('31/12/2024');
  });
  it('gives an empty string for nothing or garbage', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
  it('writes times hh:mm and months like Jan 2025', () => {
    expect(formatTime('2025-03-07T09:05:00')).toBe('09:05');
    expect(formatMonth('2025-01')).toBe('Jan 2025');
    expect(formatMonth('2024-12')).toBe('Dec 2024');
    expect(formatMonth('2024-13')).toBe('');
    expect(formatDate('2025-03-07')).toBe('07/03/2025');
    expect(formatDate(Date.UTC(2025, 0, 2, 12))).toBe('02/01/2025');
  });
});

describe('form inputs', () => {
  it('capitalises each word', () => {
    expect(capitalizeWords('mary ann lee-smith')).toBe('Mary Ann Lee-Smith');
  });
  it('keeps the dial code and digits only', () => {
    expect(phoneWithDialCode('+65 9123-45x67', '+65')).toBe('+6591234567');
    expect(phoneWithDialCode('+6', '+65')).toBe('+65');
    expect(phoneWithDialCode('', '+65')).toBe('+65');
    expect(phoneWithDialCode('9+65', '+65')).toBe('+659');
    expect(phoneWithDialCode('+6123', '+65')).toBe('+65123');
    expect(phoneWithDialCode('+1', '+1')).toBe('+1');
    expect(hasPhoneNumber('+65', '+65')).toBe(false);
    expect(hasPhoneNumber('+659', '+65')).toBe(true);
  });
  it('turns negative ages into 0', () => {
    expect(ageInput('-4')).toBe('0');
    expect(ageInput('31')).toBe('31');
    expect(ageInput('')).toBe('');
    // The add forms hold the number the account schema takes (a text '30' was refused: issue 28 item 1).
    expect(ageNumber('30')).toBe(30);
    expect(ageNumber('-4')).toBe(0);
    expect(ageNumber('')).toBeNull();
  });
});

describe('<UsdtAmount>', () => {
  it('shows 0 and negative amounts in red, positive ones not', () => {
    renderPublic(
      <>
        <UsdtAmount value={-3.5} data-testid="negative" />
        <UsdtAmount value={0} data-testid="zero" />
        <UsdtAmount value="1234.5" data-testid="positive" />
      </>,
    );
    expect(screen.getByTestId('negative')).toHaveTextContent('-3.50 USDT');
    expect(screen.getByTestId('negative')).toHaveAttribute('data-negative', 'true');
    expect(screen.getByTestId('zero')).toHaveAttribute('data-negative', 'true');
    expect(screen.getByTestId('positive')).toHaveTextContent('1,234.50 USDT');
    expect(screen.getByTestId('positive')).toHaveAttribute('data-negative', 'false');
  });

  it('shows an amount that is not a wallet (earnings, PnL) red only below 0', () => {
    renderPublic(
      <>
        <UsdtAmount value={-0.01} redAtZero={false} data-testid="loss" />
        <UsdtAmount value={0} redAtZero={false} data-testid="nothing" />
      </>,
    );
    expect(screen.getByTestId('loss')).toHaveAttribute('data-negative', 'true');
    expect(screen.getByTestId('nothing')).toHaveTextContent('0.00 USDT');
    expect(screen.getByTestId('nothing')).toHaveAttribute('data-negative', 'false');
  });
});
