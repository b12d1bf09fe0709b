/** Every organizations query key, so invalidations name what they refresh. (Filled in with the organizations data layer.) */
export const organizationKeys = {
  all: ['organizations'] as const,
};
