/**
 * An organization's alert lines: the console's own words (MESSAGES.alertLinePages). What the
 * server answers, and each line's sentence, come from the domain (MESSAGES.alertLines).
 */
export const ALERT_LINE_WORDING = {
  title: 'Alert lines',
  description:
    "The organization's admins are e-mailed, and a webhook event is sent, once each time a line is crossed; a line alerts again after its value comes back.",
  loadFailed: 'Failed to load the alert lines',
  none: 'No alert lines: nobody is alerted about this organization’s credits.',
  add: 'Add line',
  addTitle: 'Add an alert line',
  edit: 'Edit',
  editAria: (line: string) => `Edit: ${line}`,
  editTitle: 'Edit the alert line',
  formDescription: 'Setting or moving a line alerts nobody: only a later crossing does.',
  delete: 'Delete',
  deleteAria: (line: string) => `Delete: ${line}`,
  deleteTitle: 'Delete this alert line?',
  deleteBody: (line: string) => `${line}. Nobody is alerted about it any more.`,
  deleteThreshold: 'This is the low-balance threshold: deleting it sets the threshold to 0.',
  deleting: 'Deleting…',
  deleted: 'Alert line deleted',
  saved: 'Alert line saved',
  saving: 'Saving…',
  save: 'Save',
  saveFailed: 'The alert line could not be saved',
  deleteFailed: 'The alert line could not be deleted',
  kindLabel: 'Alert on',
  kinds: { balance: 'The balance', cap_percent: 'A percent of the spend cap', runway_days: 'Days of runway' },
  boundLabel: { balance: 'Below (credits)', cap_percent: 'At or above (percent)', runway_days: 'Fewer than (days)' },
  windowLabel: 'Cap window',
  windows: { day: 'Day', week: 'Week', month: 'Month' },
  threshold: 'Low-balance threshold',
  crossed: 'Crossed',
  armed: 'Armed',
  now: (value: string) => `Now: ${value}`,
  limit: (max: number) => `At most ${max} lines.`,
  /** The dashboard's attention list. */
  crossedTitle: 'Alert lines crossed',
  crossedDescription: (count: number) =>
    `${count} ${count === 1 ? 'line of this organization is' : 'lines of this organization are'} crossed now.`,
} as const;
