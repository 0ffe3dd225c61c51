import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import InputBase from '@mui/material/InputBase';
import { useTranslate } from 'ra-core';
import { VERIFICATION_CODE_LENGTH } from '../../contract/constants';

export interface CodeInputProps {
  /** Called once all six digits are in (typed or pasted). */
  onComplete: (code: string) => void;
  /** Called on every change with the digits typed so far (a form that submits the code itself). */
  onChange?: (digits: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
}

const empty = () => Array.from({ length: VERIFICATION_CODE_LENGTH }, () => '');

/** Six boxes for the emailed code: digits only, paste fills them all, completes at six digits. */
export function CodeInput({ onComplete, onChange: onDigits, disabled, autoFocus = true }: CodeInputProps) {
  const translate = useTranslate();
  const [digits, setDigitsState] = useState<string[]>(empty);
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const setDigits = (next: string[]) => {
    setDigitsState(next);
    onDigits?.(next.join(''));
  };

  const update = (next: string[], focusIndex: number) => {
    setDigits(next);
    boxes.current[Math.min(focusIndex, VERIFICATION_CODE_LENGTH - 1)]?.focus();
    if (next.every((digit) => digit !== '')) onComplete(next.join(''));
  };

  const fillFrom = (index: number, text: string) => {
    const incoming = text.replace(/\D/g, '').split('');
    if (incoming.length === 0) return;
    const next = [...digits];
    let position = index;
    for (const digit of incoming) {
      if (position >= VERIFICATION_CODE_LENGTH) break;
      next[position] = digit;
      position += 1;
    }
    update(next, position);
  };

  const onChange = (index: number, value: string) => {
    const digit = value.replace(/\D/g, '');
    if (value === '') {
      const next = [...digits];
      next[index] = '';
      setDigits(next);
      return;
    }
    const old = digits[index] ?? '';
    // Typing into a filled box keeps the new digit; a longer value (autofill) fills onwards.
    const fresh = old && digit.length === 2 ? (digit.startsWith(old) ? digit.slice(1) : digit.slice(0, 1)) : digit;
    if (fresh) fillFrom(index, fresh);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && digits[index] === '' && index > 0) {
      const next = [...digits];
      next[index - 1] = '';
      setDigits(next);
      boxes.current[index - 1]?.focus();
      event.preventDefault();
    } else if (event.key === 'ArrowLeft' && index > 0) boxes.current[index - 1]?.focus();
    else if (event.key === 'ArrowRight' && index < VERIFICATION_CODE_LENGTH - 1) boxes.current[index + 1]?.focus();
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    fillFrom(index, event.clipboardData.getData('text'));
  };

  return (
    <Box sx={{ display: 'flex', gap: { xs: 0.75, sm: 1.25 }, justifyContent: 'center' }}>
      {digits.map((digit, index) => (
        <InputBase
          key={index}
          value={digit}
          disabled={disabled}
          autoFocus={autoFocus && index === 0}
          inputRef={(element: HTMLInputElement | null) => {
            boxes.current[index] = element;
          }}
          onChange={(event) => onChange(index, event.target.value)}
          onKeyDown={(event) => onKeyDown(index, event as KeyboardEvent<HTMLInputElement>)}
          onPaste={(event) => onPaste(index, event as ClipboardEvent<HTMLInputElement>)}
          inputProps={{
            inputMode: 'numeric',
            autoComplete: index === 0 ? 'one-time-code' : 'off',
            maxLength: VERIFICATION_CODE_LENGTH,
            'aria-label': translate('app.twoFactor.digit', { position: index + 1 }),
            style: { textAlign: 'center' },
          }}
          sx={{
            width: { xs: 40, sm: 48 },
            height: { xs: 48, sm: 56 },
            fontSize: 24,
            fontWeight: 600,
            border: 1,
            borderColor: digit ? 'primary.main' : 'divider',
            borderRadius: 1,
            bgcolor: 'background.paper',
          }}
        />
      ))}
    </Box>
  );
}
