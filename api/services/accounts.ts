/**
 * Accounts, djoser's /auth/users/ flows, one a file under accounts/: registration and activation,
 * passwords (reset by code, changed by the owner), a new address proved by its own code, and the
 * profile others may see and change. Every mailed code counts against its inbox (mail-limits).
 */
export { activate, register, type Names } from "./accounts/registration";
export { resetPassword, setPassword } from "./accounts/passwords";
export { askNewAddress, confirmNewAddress, NEW_ADDRESS_CODE_SENT } from "./accounts/email-change";
export { updateUser, visibleUser, visibleUsers, type UserChange } from "./accounts/profile";
export { limitMailsTo } from "./accounts/mail-limits";
