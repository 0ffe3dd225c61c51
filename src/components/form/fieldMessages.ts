import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ui, validation } from '../../../contract/messages';

/** A form field as the person sees it: its label, and whether it is chosen (dropdown) rather than typed. */
export interface FormField {
  label: string;
  choice?: boolean;
}

/** The form's fields by path ('account.firstName'). */
export type FormFields = Record<string, FormField>;

/** The catalogue's sentences for a missing field ('%{field} is required', 'Please select %{field}'). */
export interface MissingFieldTexts {
  required: (label: string) => string;
  select: (label: string) => string;
}

/** Texts of the spec (section 5 and the Registration ID texts of section 8): shown as they are. */
const SPEC_TEXTS: ReadonlySet<string> = new Set<string>([...Object.values(validation), ...Object.values(ui.registrationId), ...Object.values(ui.form)]);

function isBlank(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  return typeof value === 'number' && Number.isNaN(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The contract's message with the field's wire name ('apiKey', 'age') replaced by its label. */
function namingTheField(message: string, path: string, label: string): string {
  const wireName = path.split('.').at(-1) ?? path;
  const lead = new RegExp(`^(${escapeRegExp(wireName)}|${escapeRegExp(label)})\\b:?\\s*`, 'i');
  if (lead.test(message)) return `${label} ${message.replace(lead, '')}`;
  if (/^[a-z]/.test(message)) return `${label} ${message}`;
  return `${label}: ${message}`;
}

/**
 * What a person reads under a field: the spec's text where the spec has one, else a sentence naming
 * the field ('First Name is required', 'Please select gender', 'Email must be a valid email address').
 */
export function fieldMessage(message: string, value: unknown, path: string, field: FormField | undefined, texts: MissingFieldTexts): string {
  if (SPEC_TEXTS.has(message) || !field) return message;
  if (field.choice) return texts.select(field.label.toLowerCase());
  if (isBlank(value)) return texts.required(field.label);
  return namingTheField(message, path, field.label);
}

function valueAt(values: FieldValues, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), values);
}

function isFieldError(error: unknown): error is FieldError {
  return error !== null && typeof error === 'object' && typeof (error as FieldError).message === 'string';
}

/** The resolver's errors with every message rewritten by `fieldMessage`. */
export function relabelErrors(errors: FieldErrors, values: FieldValues, fields: FormFields, texts: MissingFieldTexts, prefix = ''): FieldErrors {
  const relabelled: Record<string, unknown> = {};
  for (const [key, error] of Object.entries(errors)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isFieldError(error)) relabelled[key] = { ...error, message: fieldMessage(error.message ?? '', valueAt(values, path), path, fields[path], texts) };
    else if (error && typeof error === 'object') relabelled[key] = relabelErrors(error as FieldErrors, values, fields, texts, path);
  }
  return relabelled as FieldErrors;
}

/**
 * zodResolver over the contract's schema (`raw`: the form sends what was typed; the server parses it
 * with the same schema), its messages made for the person filling the form.
 */
export function labelledResolver(schema: z.ZodType, fields: FormFields, texts: MissingFieldTexts): Resolver<FieldValues> {
  // react-admin's <Form> is not generic over the values, hence the widening.
  const resolve = zodResolver(schema as z.ZodType<FieldValues, FieldValues>, undefined, { raw: true }) as Resolver<FieldValues>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    return { values: result.values, errors: relabelErrors(result.errors, values, fields, texts) } as Awaited<ReturnType<Resolver<FieldValues>>>;
  };
}
