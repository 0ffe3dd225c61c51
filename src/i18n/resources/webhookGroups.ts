/** Texts of the Webhook Settings page. */
export const webhookGroupsMessages = {
  name: 'Webhook group |||| Webhook groups',
  title: 'Receive Webhook Once',
  fields: { group: 'Group', isActive: 'Receive Webhook Once', datetimeUpdated: 'Last Refresh' },
};
