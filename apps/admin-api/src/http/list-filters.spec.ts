import { callFiltersSchema, deviceFiltersSchema } from '@fleet/api-contract';
import { callListQuery } from '../calls/calls.schemas';
import { deviceListQuery } from '../devices/devices.schemas';

// The contract's list filters are what clients send; the API's query schemas parse the same names from text.
describe("the contract's list filters", () => {
  it.each([
    ['devices', deviceFiltersSchema.shape, deviceListQuery.shape],
    ['calls', callFiltersSchema.shape, callListQuery.shape],
  ])('of %s are query parameters the API parses, all but paging', (_list, filters, query) => {
    const paging = ['limit', 'cursor'];
    expect(Object.keys(filters).sort()).toEqual(
      Object.keys(query)
        .filter((k) => !paging.includes(k))
        .sort(),
    );
  });
});
