import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { formatMonth } from '../../components/formatDate';
import { SelectFilter } from './SelectFilter';
import { monthOptions } from './monthOptions';

/** 'All month' plus each month from May 2024 to now, labelled like 'Jan 2025', valued YYYY-MM. */
export function MonthFilter({ value, onChange, label }: { value: string | undefined; onChange: (value: string) => void; label?: string }) {
  const translate = useTranslate();
  const options = useMemo(() => monthOptions(new Date()).map((month) => ({ value: month, label: formatMonth(month) })), []);
  return <SelectFilter label={label ?? translate('app.lists.month')} allLabel={translate('app.lists.allMonth')} value={value} options={options} onChange={onChange} />;
}
