import Add from '@mui/icons-material/Add';
import Visibility from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import { useCanAccess, useTranslate } from 'ra-core';
import { Link } from 'react-router-dom';

/** The list's add button: a link to the spec's add page, disabled (not hidden) unless `canAccess(create)` (spec 6). */
export function AddButton({ to, label }: { to: string; label: string }) {
  const { canAccess } = useCanAccess({ action: 'create' });
  return (
    <Button variant="contained" startIcon={<Add />} component={Link} to={to} disabled={canAccess !== true}>
      {label}
    </Button>
  );
}

/** The "Action" column's eye: a link to the record's page. */
export function ViewButton({ to }: { to: string }) {
  const translate = useTranslate();
  return (
    <IconButton size="small" component={Link} to={to} aria-label={translate('app.lists.view')}>
      <Visibility fontSize="small" />
    </IconButton>
  );
}

/** A person's full name linking to their page. */
export function PersonLink({ to, person }: { to: string; person: { firstName: string; lastName: string } }) {
  return <Link to={to}>{`${person.firstName} ${person.lastName}`}</Link>;
}
