import EditIcon from '@mui/icons-material/Edit';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useTranslate, type Identifier } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { StrategyStatus, strategyStatusLabels } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListHeader } from '../../components/list/ListHeader';
import { ListPagination } from '../../components/list/ListPagination';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { TextFilter } from '../../components/list/TextFilter';
import { strategyEditPath } from './strategyPaths';
import { useLocationResult } from './useLocationResult';

/** The list's query parameters (spec 2). */
const FILTERS = ['symbol'] as const;
const Column = ListColumn<Strategy>;
const editPath = (id: Identifier) => strategyEditPath(id);

function EditButton({ record }: { record: Strategy }) {
  const translate = useTranslate();
  return (
    <IconButton size="small" component={Link} to={editPath(record.id)} aria-label={`${translate('resources.strategies.actions.edit')} ${record.id}`}>
      <EditIcon fontSize="small" />
    </IconButton>
  );
}

function StatusField({ record }: { record: Strategy }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={record.status === StrategyStatus.Active ? 'success' : 'default'}
      label={strategyStatusLabels[record.status as StrategyStatus] ?? record.status}
    />
  );
}

/** 'Strategy Setting Record' (/admin/strategies, /employee/strategies): pageIndex and symbol in the URL; Symbol sorts in three states. */
export function StrategyList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  useLocationResult();
  return (
    <SpecList resource="strategies" filters={FILTERS}>
      <ListHeader title={t('title.list')} />
      <Stack direction="row" spacing={1}>
        <TextFilter source="symbol" label={t('filters.symbol')} placeholder={t('placeholders.symbol')} parse={(value) => value.toUpperCase()} />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<Strategy>>
        <Column label="resources.strategies.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source="symbol" label="resources.strategies.fields.symbol" />
        <Column source="id" label="resources.strategies.fields.id" disableSort />
        <Column label="resources.strategies.fields.status" disableSort render={(record) => <StatusField record={record} />} />
        <Column label="resources.strategies.fields.result" disableSort render={(record) => `${t('fields.win')} ${record.win} / ${t('fields.loss')} ${record.loss}`} />
        <Column label="resources.strategies.fields.datetimeInserted" disableSort render={(record) => formatDate(record.datetimeInserted)} />
        <Column label="resources.strategies.fields.action" disableSort render={(record) => <EditButton record={record} />} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
