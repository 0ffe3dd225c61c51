import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { ModalNotice } from '../../components/ModalNotice';

/** `?success=True` opens 'Thank You for Registering!'; the query string is then cleaned. */
export function ThankYouModal() {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const [open, setOpen] = useState(search.get('success') === 'True');
  useEffect(() => {
    if (search.has('success') || search.has('platformType')) setSearch(new URLSearchParams(), { replace: true });
  }, [search, setSearch]);
  return (
    <ModalNotice
      open={open}
      onClose={() => setOpen(false)}
      type="success"
      title={translate('resources.customers.thankYou.title')}
      message={translate('resources.customers.thankYou.message')}
    />
  );
}
