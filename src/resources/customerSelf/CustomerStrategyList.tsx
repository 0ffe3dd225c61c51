import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { CustomerStrategy } from '../../../contract/api/strategy';
import { amountTypeLabels, entryDirectionLabels, strategyStatusLabels, type AmountType, type EntryDirection, type StrategyStatus } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { linkTo } from '../../pages/routes';

const Column = ListColumn<CustomerStrategy>;
const amount = (value: { type: number; amount: number }) => `${value.amount} ${amountTypeLabels[value.type as AmountType] ?? ''}`;

/**
 * The customer's strategies, read-only: 'Strategy Setting Record' (/customer/strategies) or, with the
 * trading parameters, 'Presetting Parameters' (/customer/parameters/preset): one list view, mounted
 * at both URLs of the resource.
 */
export function CustomerStrategyList() {
  const translate = useTranslate();
  const detailed = useLocation().pathname === linkTo('customerPreset');
  const t = (key: string) => translate(`resources.strategies.${key}`);
  return (
    <SpecList resource="customerStrategies">
      <ListHeader title={t(detailed ? 'title.form' : 'title.list')} />
      <ListDataTable<CustomerStrategy>>
        <Column label="resources.strategies.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source="symbol" label="resources.strategies.fields.symbol" disableSort />
        <Column source="id" label="resources.strategies.fields.id" disableSort />
        {detailed ? (
          <>
            <Column label="resources.strategies.fields.entryDirection" disableSort render={(row) => entryDirectionLabels[row.entryDirection as EntryDirection] ?? ''} />
            <Column source="leverage" label="resources.strategies.fields.leverage" disableSort />
            <Column label="resources.strategies.fields.investDollar" disableSort render={(row) => amount(row.investAmount)} />
            <Column label={translate('resources.strategies.fields.tpTarget', { n: 1 })} disableSort render={(row) => row.tp1.targetLevel ?? ''} />
            <Column label="resources.strategies.fields.stopLoss" disableSort render={(row) => amount(row.stopLoss)} />
            <Column label="resources.strategies.fields.trailingStop" disableSort render={(row) => t(row.trailingStop ? 'on' : 'off')} />
          </>
        ) : (
          <>
            <Column label="resources.strategies.fields.status" disableSort render={(row) => strategyStatusLabels[row.status as StrategyStatus] ?? ''} />
            <Column label="resources.strategies.fields.result" disableSort render={(row) => `${t('fields.win')} ${row.win} / ${t('fields.loss')} ${row.loss}`} />
            <Column label="resources.strategies.fields.datetimeInserted" disableSort render={(row) => formatDate(row.datetimeInserted)} />
          </>
        )}
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
