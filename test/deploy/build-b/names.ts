/** What build B's workflows and the deploy test both name (the test never loads workflow code). */
export const BUILD_B_PATCH = 'deploy-test-build-b';
/** Answered by build B's signal workflow only. */
export const BUILD_QUERY = 'deployTestBuild';
