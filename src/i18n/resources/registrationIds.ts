/** Texts of the agent's 'Registration ID Record'. */
export const registrationIdsMessages = {
  name: 'Registration ID |||| Registration IDs',
  title: 'Registration ID Record',
  fields: { number: 'No.', code: 'Registration ID', status: 'Status', datetimeInserted: 'Date of Creation', datetimeRegistered: 'Register Date' },
  counts: { registered: 'Registered', pending: 'Pending', expired: 'Expired' },
};
