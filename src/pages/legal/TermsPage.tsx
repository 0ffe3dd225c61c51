import { LegalDocument } from './LegalDocument';

export const TERMS_SECTIONS = 14;

/** /terms: Terms of Service in 14 numbered sections. */
export function TermsPage() {
  return <LegalDocument namespace="app.terms" sectionCount={TERMS_SECTIONS} />;
}
