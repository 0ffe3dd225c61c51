import { describe, expect, it } from 'vitest';
import { validation } from '../../../contract/messages';
import { emptyPerson } from '../common/personForm';
import { customerCreateErrors, emptyCustomerCreate } from './customerCreateForm';

describe('add customer validation', () => {
  it('asks for agent, country, exchange and group or exclusive', () => {
    const errors = customerCreateErrors(emptyPerson, emptyCustomerCreate);
    expect(errors.agentId).toBe(validation.selectAgent);
    expect(errors.country).toBe(validation.selectCountry);
    expect(errors.platformType).toBe(validation.selectExchange);
    expect(errors.group).toBe(validation.selectGroupOrExclusive);
    expect(Object.keys(errors).sort()).toEqual(
      ['age', 'agentId', 'apiKey', 'apiSecret', 'country', 'email', 'exchangeAccountUUID', 'firstName', 'gender', 'group', 'lastName', 'password', 'phone', 'platformType'].sort(),
    );
  });
  it('accepts exclusive instead of a group, and no passphrase', () => {
    const person = { firstName: 'A', lastName: 'B', email: 'a@b.co', age: '30', phone: '+6591234567', country: { id: 1, name: 'Singapore', imageUrl: '', countryCode: 'SG', dialCode: '+65' }, gender: 1, password: 'longpassword' } as const;
    const values = { agentId: 3, platformType: 2, exchangeAccountUUID: 'uid', apiKey: 'k', apiSecret: 's', passphrase: '', choice: { group: 5 as const, isExclusive: true } };
    expect(customerCreateErrors({ ...person }, values)).toEqual({});
  });
});
