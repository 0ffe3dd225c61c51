import { z } from 'zod';
import { accountCreateBody } from '../../../contract/api/account';
import { password } from '../../../contract/common';
import { validation } from '../../../contract/messages';

/**
 * The personal fields of the add forms (customer, agent, employee), validated by the contract's
 * account schema (the one POST /api/account applies) with the spec's own texts where spec 5 gives
 * one ('Please select country').
 */
export const personSchema = accountCreateBody.omit({ accountType: true, password: true }).extend({
  countryId: z.number({ error: validation.selectCountry }).int().positive(validation.selectCountry),
});

export const personWithPasswordSchema = personSchema.extend({ password });

export type PersonInput = z.input<typeof personWithPasswordSchema>;
