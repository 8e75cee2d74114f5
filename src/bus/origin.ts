/** Who asked: the shape the data files keep (`src/store/formats/origin.ts`), carried as is. */
export { originSchema, type Origin } from '../store/formats/origin.js';
