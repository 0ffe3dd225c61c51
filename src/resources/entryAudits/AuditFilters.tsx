import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { EXIT_TYPE_FILTER_CHOICES } from '../../../contract/enums';
import { MonthFilter } from '../../components/list/MonthFilter';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { SelectFilter } from '../../components/list/SelectFilter';
import { useAppDataProvider } from '../../dataProvider';
import { TODAY } from '../../dataProvider/resources/auditRequest';
import type { AuditKind } from '../../dataProvider/resources/audits';
import { SymbolFilter } from '../orders/SymbolFilter';

/** Time (Today, All or one transaction id), month; on exits also symbol and exit type (All, 1, 2, 3 automatic). */
export function AuditFilters({ kind }: { kind: AuditKind }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.entryAudits.filters.${key}`);
  const dataProvider = useAppDataProvider();
  const ids = useQuery({ queryKey: ['orders', 'transactionIds'], queryFn: () => dataProvider.getTransactionIds() });
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      <SelectFilter source="current" label={t('current')} allLabel={t('all')} choices={[{ value: TODAY, label: t('today') }, ...(ids.data ?? []).map((id) => ({ value: String(id), label: `#${id}` }))]} />
      <MonthFilter />
      {kind === 'exit' && <SymbolFilter />}
      {kind === 'exit' && (
        <SelectFilter source="exitType" label={t('exitType')} allLabel={t('all')} choices={EXIT_TYPE_FILTER_CHOICES.map((choice) => ({ value: String(choice.value), label: choice.label }))} />
      )}
      <ResetFiltersButton />
    </Stack>
  );
}
