import { ui } from '../../../contract/messages';

/** Texts of the employee list, profile and add form. */
export const employeesMessages = {
  name: 'Employee |||| Employees',
  title: { list: 'Employee List', profile: 'Employee Profile', add: 'Add Employee' },
  fields: {
    number: 'No.',
    name: 'Name',
    country: 'Country',
    status: 'Status',
    since: 'Since',
    action: 'Action',
    employeeId: 'Employee ID',
    firstName: 'First Name',
    lastName: 'Last Name',
    email: 'Email',
    age: 'Age',
    phone: 'Mobile',
    gender: 'Gender',
    permission: 'Staff Permissions',
  },
  actions: { add: 'Add Employee', block: 'Block', unblock: 'Unblock', delete: 'Delete Account', changePassword: 'Change Password' },
  confirm: { block: 'Blocking confirmation', unblock: 'Confirmation of unblocking', delete: 'Confirm delete this account' },
  notifications: {
    blocked: ui.blocking.employeeBlocked,
    unblocked: ui.blocking.employeeUnblocked,
    deleted: ui.accountsSuccess.accountDeleted,
    deleteFailed: ui.accountsFailure.deleteEmployee,
  },
};
