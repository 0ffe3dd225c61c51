import { describe, expect, it } from 'vitest';
import type { FieldErrors, FieldValues, ResolverOptions } from 'react-hook-form';
import { validation } from '../../../contract/messages';
import { customerCreateSchema, emptyCustomerCreate } from '../../resources/customers/customerCreateSchema';
import { fieldMessage, labelledResolver, type FormFields } from './fieldMessages';

const texts = { required: (label: string) => `${label} is required`, select: (label: string) => `Please select ${label}` };
const fields: FormFields = {
  'account.firstName': { label: 'First Name' },
  'account.email': { label: 'Email' },
  'account.age': { label: 'Age' },
  'account.phone': { label: 'Mobile' },
  'account.gender': { label: 'Gender', choice: true },
  'account.countryId': { label: 'Country', choice: true },
  'customer.apiKey': { label: 'API Key' },
  'customer.group': { label: 'Group', choice: true },
};

function messagesOf(errors: FieldErrors, prefix = ''): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [key, error] of Object.entries(errors)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (error && typeof error.message === 'string') found[path] = error.message;
    else if (error && typeof error === 'object') Object.assign(found, messagesOf(error as FieldErrors, path));
  }
  return found;
}

describe('fieldMessage', () => {
  it('keeps the spec’s texts and names the field otherwise', () => {
    expect(fieldMessage(validation.selectCountry, undefined, 'account.countryId', fields['account.countryId'], texts)).toBe(validation.selectCountry);
    expect(fieldMessage('is required', '', 'account.firstName', fields['account.firstName'], texts)).toBe('First Name is required');
    expect(fieldMessage('gender must be 1 (Male) or 2 (Female)', undefined, 'account.gender', fields['account.gender'], texts)).toBe('Please select gender');
    expect(fieldMessage('apiKey is required', '  ', 'customer.apiKey', fields['customer.apiKey'], texts)).toBe('API Key is required');
    expect(fieldMessage('must be a valid email address', 'x@', 'account.email', fields['account.email'], texts)).toBe('Email must be a valid email address');
    expect(fieldMessage('age must be at most 150', 200, 'account.age', fields['account.age'], texts)).toBe('Age must be at most 150');
    expect(fieldMessage('phone must hold a dial code and number, digits only', '+65', 'account.phone', fields['account.phone'], texts)).toBe(
      'Mobile must hold a dial code and number, digits only',
    );
  });
});

describe('labelledResolver over the Add customer schema', () => {
  const resolve = labelledResolver(customerCreateSchema, fields, texts);
  const run = (values: FieldValues) => resolve(values, undefined, { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<FieldValues>);

  it('asks for the group together with the other missing fields (the spec text was missing: issue 28 item 7)', async () => {
    const { errors } = await run({ account: {}, ...emptyCustomerCreate });
    const messages = messagesOf(errors);
    expect(messages['customer.group']).toBe(validation.selectGroupOrExclusive);
    expect(messages['account.firstName']).toBe('First Name is required');
    expect(messages['account.gender']).toBe('Please select gender');
    expect(messages['customer.apiKey']).toBe('API Key is required');
    expect(messages['customer.agentId']).toBe(validation.selectAgent);
  });

  it('takes an age typed as a number and says nothing of the group once one is chosen', async () => {
    const { errors } = await run({ account: { age: 30 }, customer: { group: 1, isExclusive: false } });
    const messages = messagesOf(errors);
    expect(messages['account.age']).toBeUndefined();
    expect(messages['customer.group']).toBeUndefined();
  });
});
