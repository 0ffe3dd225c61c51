import FormHelperText from '@mui/material/FormHelperText';
import { useTranslate } from 'react-admin';

/** An error text under a group of inputs; nothing when there is none. */
export function FieldError({ message }: { message: string | undefined }) {
  const translate = useTranslate();
  if (message === undefined) return null;
  return <FormHelperText error>{translate(message, { _: message })}</FormHelperText>;
}
