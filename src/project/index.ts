/**
 * Gradle project inspection without running Gradle: the project root and modules, each module's
 * Android configuration (Kotlin DSL and Groovy), variants and their tasks, `output-metadata.json`,
 * the package scope, safe project-file access, and run configurations.
 */
export { findGradleRoot, settingsFileIn } from './gradle-root.js';
export {
  inspectProject,
  findModule,
  effectiveNamespace,
  defaultApplicationId,
  APPLICATION_PLUGIN,
} from './project-model.js';
export type { ProjectModel, ModuleInfo, ModuleManifest } from './project-model.js';
export { readBuildFile } from './android-config.js';
export type { AndroidConfig, BuildTypeConfig, ProductFlavorConfig, BuildFileInfo } from './android-config.js';
export type { PluginUse } from './plugins.js';
export { parseSettings, defaultProjectDir } from './settings.js';
export type { SettingsInfo } from './settings.js';
export { parseVersionCatalog, resolvePluginAlias } from './version-catalog.js';
export type { VersionCatalog, CatalogPlugin } from './version-catalog.js';
export { parseManifest, qualifyComponent } from './manifest.js';
export type { ManifestInfo } from './manifest.js';
export {
  moduleVariants,
  projectVariants,
  variantTask,
  variantName,
  variantApplicationId,
  flavorGroups,
} from './variants.js';
export type { BuildVariant, VariantTasks } from './variants.js';
export { parseOutputMetadata, findOutputMetadata } from './output-metadata.js';
export type {
  OutputMetadata,
  OutputMetadataElement,
  OutputMetadataResult,
  FoundOutputMetadata,
} from './output-metadata.js';
export {
  projectPackageScope,
  packageScopeFrom,
  checkPackageScope,
  scopeIncludes,
  scopeIds,
} from './package-scope.js';
export type { PackageScope, ScopeBase, PackageScopeCheck } from './package-scope.js';
export {
  resolveProjectFile,
  readProjectFile,
  resolveApkPath,
  openVerified,
  isInside,
  MAX_PROJECT_FILE_BYTES,
} from './project-files.js';
export type {
  ResolvedProjectFile,
  ProjectFileText,
  ProjectFileError,
  ProjectFileErrorCode,
  OpenedApk,
} from './project-files.js';
export { defaultRunConfigurations, resolveRunConfiguration } from './run-configurations.js';
export type {
  RunConfiguration,
  RunTarget,
  RunLaunch,
  RunContext,
  RunPlan,
  RunResolution,
  ResolveMode,
  DeviceSeen,
} from './run-configurations.js';
export { findApk } from './apk-finder.js';
export type { ApkSearch } from './apk-finder.js';
