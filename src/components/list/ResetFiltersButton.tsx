import RestartAlt from '@mui/icons-material/RestartAlt';
import Button from '@mui/material/Button';
import { useListContext, useTranslate } from 'ra-core';
import { NOT_SORTED } from './SpecList';

/** The reset-filters button of every list: clears filters, search, sort and the page (spec 2). */
export function ResetFiltersButton() {
  const translate = useTranslate();
  const { setFilters, setSort } = useListContext();
  return (
    <Button
      variant="outlined"
      startIcon={<RestartAlt />}
      onClick={() => {
        setFilters({}, {}, false);
        setSort(NOT_SORTED);
      }}
    >
      {translate('app.lists.reset')}
    </Button>
  );
}
