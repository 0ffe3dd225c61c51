import Button from '@mui/material/Button';
import { useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { reloadAt } from '../../components/reloadPage';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { useSignedInAccount } from '../../layout/AccountContext';
import { strategyPresetPath } from './strategyPaths';
import { emptyStrategyForm } from './strategyFormValues';

/** Clear (unsaved form only): empties the form, says so, then goes to the preset path and reloads (spec 4). */
export function StrategyClearButton() {
  const translate = useTranslate();
  const { reset } = useFormContext();
  const showResult = useResultPopup();
  const { accountType } = useSignedInAccount();
  return (
    <Button
      variant="outlined"
      onClick={() => {
        reset(emptyStrategyForm);
        showResult({ type: 'success', message: translate('resources.strategies.notifications.cleared') }, { onClose: () => reloadAt(strategyPresetPath(accountType)) });
      }}
    >
      {translate('resources.strategies.actions.clear')}
    </Button>
  );
}
