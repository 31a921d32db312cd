export { field, defineField } from './fields/field-builders.js';
export { fieldOptionKeys, unknownFieldOptionMessage } from './fields/field-option-keys.js';
export { didYouMean } from './errors/did-you-mean.js';
export { VIEWS, type FieldActorRules, type WriteChannel, type FieldVisibleContext, type FieldReadonlyContext, type FieldDefaultContext, type View, type FieldType, type BuiltinFieldType, type FieldDefinition, type FieldOptions, type BelongsToOptions, type HasAssociationOptions, type NumberFieldOptions, type SelectFieldOptions, type TagsFieldOptions, type JsonFieldOptions, type FileFieldOptions, type HasAndBelongsToManyOptions } from './fields/field-types.js';
export { hashPassword, verifyPassword, PASSWORD_SCRYPT_COST } from './passwords/password-hash.js';
export { defineFieldType, type FieldTypeDefinition } from './fields/define-field-type.js';
export { BUILTIN_FIELD_TYPES, builtinFieldTypeOfBuilder, builtinFieldTypes, fieldTypeRegistry, type FieldTypeRegistry } from './fields/field-type-registry.js';
export { associationKey } from './fields/association-key.js';
export { FILTER_OPERATORS, escapeLike, containsText, orderedFilter, choiceFilter, TEXT_FILTER, BOOLEAN_FILTER, TAGS_FILTER, parseFilterText, parseFilterInteger, parseFilterNumber } from './fields/field-filters.js';
export { textDisplay, jsonDisplay, TEXT_FORM, LONG_TEXT_FORM, NUMBER_FORM, BOOLEAN_FORM, DATE_FORM, DATETIME_FORM, RECORD_FORM, SELECT_FORM, TAGS_FORM, JSON_OBJECT_FORM, type FieldDisplay, type FieldForm, type FormControl } from './fields/field-forms.js';
export { recordsWhere, type RecordFilter, type RecordSearch } from './records/record-filters.js';
export type { FieldFilter, FilterOperator, FilterConditionInput, FieldTypeModule, FieldValue, FieldLayout, FieldAssociation, FieldSelectInput, FieldCheckInput, FieldStatementCheckInput, FieldStatementCheck, FieldLoadContext, ParsedValue, JsonSchema, ReadableRecords } from './resources/compiled-types.js';
export { NO_RECORDS } from './records/no-records-scope.js';
export { associatedResources, unlistedResources, readableRecordsFor } from './authorization/listable-resources.js';
export { fieldViews, hasColumn, isWritableType } from './fields/field-visibility.js';
export { Resource, isResourceClass, type ResourceClass, type DefaultOrder } from './resources/resource.js';
export { compileResources, writableFields, type CompiledField, type CompiledResource } from './resources/compiled-resource.js';
export { recordKeyOf, RECORD_KEY_TYPES, MAX_TEXT_KEY_LENGTH, type RecordId, type RecordKey, type RecordKeyType } from './resources/record-key.js';
export { DEFAULT_INCLUDE_LIMITS, normalizeIncludeLimits, type IncludeLimits, type IncludeLimitsInput } from './resources/include-limits.js';
export { recordSchema, writeSchema } from './resources/record-schema.js';
export { loadResourceClasses, isSourceModule } from './resources/load-resources.js';
export { resourceNaming, resourceNameProblem, resourceNameFromClassName, resourceNameFromAssociation, underscore, camelize, humanize, type ResourceNaming } from './naming/resource-naming.js';
export { normalizePanelConfig, DEFAULT_ROOT_PATH, type PanelConfig, type PanelConfigInput, type License, type LicenseFeature } from './config/panel-config.js';
export { PanelError, PanelConfigError, RecordNotFoundError, RecordInvalidError, NotAuthorizedError, FileNotFoundError, StorageError, UploadTooLargeError, UploadRefusedError, BatchRefusedError, DatabaseUnavailableError, PgliteFolderInUseError, isPanelError, type PanelErrorCode, type DatabaseUnavailableReason, type ErrorMessages } from './errors/panel-errors.js';
export { ERROR_CODES, isErrorCode, type ErrorCode } from './errors/error-codes.js';
export { pgliteFolderHolder, type PgliteFolderHolder } from './database/pglite-folder-lock.js';
export { openDatabase, type PanelDatabase, type ReplicaReads, type OpenDatabaseOptions, type PgliteSnapshotOptions, type ExecutedQuery, type DatabaseKind } from './database/panel-database.js';
export { databaseSetupProblem } from './database/database-setup-problem.js';
export { sentWithCommit, SENT_WITH_COMMIT } from './database/sent-with-commit.js';
export { DEFAULT_DATABASE_TIMEOUTS, normalizeDatabaseTimeouts, type DatabaseTimeouts } from './database/database-timeouts.js';
export { databaseUnavailableReason, asDatabaseUnavailable } from './database/database-unavailable.js';
export { isStalePlan, retryAfterStalePlan, MAX_STALE_PLAN_RUNS } from './database/stale-plan.js';
export { shareTransaction } from './database/request-transaction.js';
export { consoleDatabaseLogger, type DatabaseLogger } from './database/database-logger.js';
export { pingDatabase } from './database/ping-database.js';
export { OneTimeReveals, ONE_TIME_REVEALS_TABLE, type OneTimeRevealsOptions } from './reveals/one-time-reveals.js';
export type { ReplicaStatus } from './database/replicas/replica-set.js';
export { ChangeNotifications, CHANGES_CHANNEL, type Change, type ChangeSubscriber, type ChangeNotificationsOptions } from './database/change-notifications.js';
export { DEFAULT_HEARTBEAT_MILLIS } from './database/listener-heartbeat.js';
export { runWithReadConsistency, currentReadConsistency, type ReadConsistency } from './database/replicas/read-consistency.js';
export { parseWalPosition, formatWalPosition, type WalPosition } from './database/replicas/wal-position.js';
export { urlWithoutSecrets } from './database/database-url.js';
export { RecordsRepository, type RecordRow, type RecordsSort, type RecordsPage, type ColumnValues, type KeysetPage, type KeysetPageInput, type IncludedPage, type IncludeManyInput, type IncludeOneInput } from './records/records-repository.js';
export type { KeysetOrder, KeysetPosition } from './records/keyset-order.js';
export { keysetValueDigest } from './records/keyset-order.js';
export { MAX_LIST_SHAPES } from './records/list-statements.js';
export { NO_STATEMENT_CACHE, ShapeStatementCache, type StatementCache, type StatementShape, type Statements, type KeptShapes } from './records/statement-cache.js';
export { normalizeCountStrategy, DEFAULT_EXACT_BELOW, DEFAULT_MAX_CACHED_COUNTS, type CountStrategy, type CountStrategyInput } from './records/count-strategy.js';
export type { TotalCountSource } from './records/record-counts.js';
export { ROW_ALIAS, type RecordsQuery, type ScopeFunction } from './records/record-select.js';
export { parseWriteValues, unpermittedKeys, UNPERMITTED_KEY_MESSAGE, MAX_RECORD_ID, type ParsedWrite } from './records/write-values.js';
export { SESSION_USERS_TABLE, type PasswordChange } from './operations/password-change.js';
export { noticingRecord } from './authorization/record-probe.js';
export { fieldAccess, isSensitiveField, channelMayWrite, viewHasNoFieldRules, type FieldAccess, type FieldAccessInput, type FieldWriteAction } from './authorization/field-access.js';
export { Current } from './current/current.js';
export { createPanel, type Panel, type CreatePanelOptions } from './panel/panel.js';
export { isCatalogChangedDuringSetup, isOtherSchemaDropped, runMigrations, type Migration, type RunMigrationsOptions } from './database/run-migrations.js';
export { panelMigrations, panelSessionMigrations, panelApiMigrations, panelRevealMigrations, runPanelMigrations, PANEL_MIGRATION_TABLE, PANEL_SESSION_MIGRATION_TABLE, PANEL_API_MIGRATION_TABLE, PANEL_REVEAL_MIGRATION_TABLE } from './database/panel-migrations.js';
export { IDEMPOTENCY_KEYS_TABLE, RATE_LIMITS_TABLE, TOKEN_RATE_LIMITS_TABLE } from './database/migrations/0001-create-idempotency-and-rate-limit-tables.js';
export type { StorageService, UploadInput, DirectUploadInput as StorageDirectUploadInput, DirectUploadTarget } from './storage/storage-service.js';
export { PanelUploads, type Upload, type DirectUploadAnswer, type ReceiveUploadInput, type DirectUploadInput, type PendingUpload, type PanelUploadsOptions } from './uploads/uploads-service.js';
export type { UploadBatch } from './uploads/upload-batch.js';
export { FILE_PART_CONTENT_TYPE } from './uploads/upload-names.js';
export { DEFAULT_UPLOAD_EXPIRY_SECONDS, DEFAULT_MAX_UPLOAD_BYTES, type UploadOptionsInput, type UploadOptions } from './uploads/upload-options.js';
export { uploadLimit, fileProblem, receivedFileProblem, fieldMaxBytes, fieldAccept, INVALID_UPLOAD_MESSAGE } from './uploads/file-rules.js';
export { isUploadId } from './uploads/upload-id.js';
export { sniffContentType, SNIFF_BYTES } from './uploads/sniff-content-type.js';
export { acceptsType, formatBytes } from './uploads/accepted-type.js';
export { UPLOADS_TABLE } from './uploads/upload-tables.js';
export { removeKey, storedRemoveNames, type FileChange } from './uploads/file-changes.js';
export { diskStorage, type DiskStorageOptions, type DiskStorageService } from './storage/disk-storage.js';
export { s3Storage, type S3StorageOptions, type S3StorageService } from './storage/s3-storage.js';
export { signS3Request, presignS3Request, sha256Hex, type S3Credentials, type S3RequestToSign, type S3RequestToPresign } from './storage/s3-signature.js';
export { newBlobKey, isBlobKey, BLOB_KEY_PATTERN, BLOB_KEY_LENGTH } from './storage/blob-key.js';
export { blobChecksum } from './storage/blob-checksum.js';
export { PanelAttachments, type AttachInput, type FieldOfRecord, type PanelAttachmentsOptions, type PurgeErrorHandler } from './attachments/attachments-service.js';
export { STORAGE_EMPTY_WARNING } from './attachments/check-storage-folder.js';
export { BLOBS_TABLE, ATTACHMENTS_TABLE, type BlobRecord, type AttachedFile } from './attachments/attachment-tables.js';
export { attachmentUrl, attachmentsPath, ATTACHMENTS_SEGMENT } from './attachments/attachment-url.js';
export { sanitizeFilename, checkedContentType, MAX_FILENAME_LENGTH } from './attachments/sanitize-filename.js';
export { Policy, PolicyScope, type PolicyClass, type PolicyScopeClass } from './authorization/policy.js';
export { policyAuthorization, POLICIES_CLIENT } from './authorization/policy-authorization.js';
export type { AuthorizationClient, PanelPlugin, PolicyAction } from './authorization/authorization-client.js';
export {
  createSessionCodec,
  checkSessionSecrets,
  secretsEqual,
  newCsrfToken,
  MIN_SECRET_LENGTH,
  SESSION_FORMAT_VERSION,
  DEFAULT_SESSION_LIFETIME,
  DEFAULT_SESSION_IDLE_TIMEOUT,
  type SessionCodec,
  type SessionCodecOptions,
  type SessionData,
  type SessionStamps,
  type OpenedSession,
} from './session/session-codec.js';
export { PanelSessions } from './session/panel-sessions.js';
export { secretKeyObject } from './session/secret-key-object.js';
export { normalizeSessionOptions, type SessionOptions, type SessionOptionsInput, type SecureCookies } from './session/session-options.js';
export { SessionRevocations, type SessionUserId } from './session/session-revocations.js';
export { SignInThrottle, SIGN_IN_BACKOFF_SECONDS, SIGN_IN_KNOWN_CLIENT_SECONDS, type SignInAttempt, type SignInVerdict, type SignInThrottleOptions } from './session/sign-in-throttle.js';
export { SESSION_GENERATIONS_TABLE, REVOKED_SESSIONS_TABLE, SIGN_IN_FAILURES_TABLE } from './session/session-tables.js';
export { RecordErrors } from './validation/record-errors.js';
export { checkFieldRules, type FieldRules } from './validation/field-rules.js';
export type { ValidationContext, DestroyContext } from './validation/hook-contexts.js';
export type { ResourceHooks } from './resources/compiled-resource.js';
export { operations } from './operations/operations.js';
export type { OperationInput, AuthorizeFunction } from './operations/operation-input.js';
export type { KeysetListInput, KeysetListResult, ListInput, ListResult } from './operations/list-operation.js';
export type { ShowInput } from './operations/show-operation.js';
export type { CreateInput } from './operations/create-operation.js';
export type { UpdateInput } from './operations/update-operation.js';
export type { DestroyInput } from './operations/destroy-operation.js';
export { DEFAULT_MAX_BATCH_OPERATIONS, MAX_BATCH_OPERATIONS, type BatchInput, type BatchOp, type BatchOperationInput, type BatchOutcome, type BatchOutcomeKind, type BatchResult } from './operations/batch-types.js';
export { checkBatchOperations } from './operations/batch-checks.js';
export { textProblem } from './validation/text-problem.js';
export { checkResourceSchema } from './resources/schema-check.js';
