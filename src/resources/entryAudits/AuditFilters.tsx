import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { orderRoutes } from '../../../contract/api/order';
import { ExitType, exitTypeLabels } from '../../../contract/enums';
import type { AppDataProvider } from '../../dataProvider';
import { MonthFilter } from '../common/MonthFilter';
import { ResetButton } from '../common/ResetButton';
import { SelectFilter } from '../common/SelectFilter';
import type { ListState } from '../common/useListState';
import { SymbolFilter } from '../orders/SymbolFilter';
import { TODAY, type AuditFilterName } from './auditRequest';

/** Time (Today, All or one transaction id), month; on exits also symbol and exit type. */
export function AuditFilters({ kind, list }: { kind: 'entry' | 'exit'; list: ListState<AuditFilterName> }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.entryAudits.filters.${key}`);
  const dataProvider = useDataProvider<AppDataProvider>();
  const ids = useQuery({ queryKey: ['orders', 'transactionIds'], queryFn: () => dataProvider.call(orderRoutes.transactionIds) });
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      <SelectFilter
        label={t('current')}
        allLabel={t('all')}
        value={list.filters.current}
        options={[{ value: TODAY, label: t('today') }, ...(ids.data ?? []).map((id) => ({ value: String(id), label: `#${id}` }))]}
        onChange={(value) => list.setFilter('current', value)}
      />
      <MonthFilter value={list.filters.month} onChange={(value) => list.setFilter('month', value)} />
      {kind === 'exit' && <SymbolFilter value={list.filters.symbol} onChange={(value) => list.setFilter('symbol', value)} />}
      {kind === 'exit' && (
        <SelectFilter
          label={t('exitType')}
          allLabel={t('all')}
          value={list.filters.exitType === '0' ? '' : list.filters.exitType}
          options={Object.values(ExitType).map((type) => ({ value: String(type), label: exitTypeLabels[type] }))}
          onChange={(value) => list.setFilter('exitType', value)}
        />
      )}
      <ResetButton onClick={list.reset} />
    </Stack>
  );
}
