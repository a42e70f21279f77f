export { quietGroupsOf, type GroupQuiet } from './quiet-groups.repository';
