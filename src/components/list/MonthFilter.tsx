import { useMemo } from 'react';
import { useTranslate } from 'ra-core';
import { formatMonth } from '../formatDate';
import { monthOptions } from './monthOptions';
import { SelectFilter } from './SelectFilter';

/** 'All month' plus each month from May 2024 to now, labelled like 'Jan 2025', valued YYYY-MM (spec 9). */
export function MonthFilter({ source = 'month', label }: { source?: string; label?: string }) {
  const translate = useTranslate();
  const choices = useMemo(() => monthOptions(new Date()).map((month) => ({ value: month, label: formatMonth(month) })), []);
  return <SelectFilter source={source} label={label ?? translate('app.lists.month')} allLabel={translate('app.lists.allMonth')} choices={choices} />;
}
