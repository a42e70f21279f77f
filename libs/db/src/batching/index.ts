export { TurnBatcher } from './turn-batcher';
