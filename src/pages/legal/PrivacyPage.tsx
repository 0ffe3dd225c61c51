import { useTranslate } from 'ra-core';
import { LegalDocument } from './LegalDocument';

export const PRIVACY_SECTIONS = 10;

/** /privacy: ten sections, last modified September 10th, 2024. */
export function PrivacyPage() {
  const translate = useTranslate();
  return <LegalDocument namespace="app.privacy" sectionCount={PRIVACY_SECTIONS} lastModified={translate('app.privacy.lastModifiedDate')} />;
}
