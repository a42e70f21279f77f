export { bootstrapAdmin, type BootstrappedAdmin } from './bootstrap-admin';
export {
  hashSignInToken,
  SignInLinksRepository,
  SIGN_IN_LINK_TTL_MS,
  type IssuedSignInLink,
} from './sign-in-links.repository';
