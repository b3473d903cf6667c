#include "draw_baseline.h"

// vkd3d_shader.h uses size_t without including <stddef.h>.
#include <stddef.h>
#include <vkd3d_shader.h>
#include <vulkan/vulkan.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "runtime/shader/assembler.h"

namespace d3dcap::bench {

namespace {

// Each draw binds 16 constants: 256 bytes of draw_bench's windows.
constexpr VkDeviceSize kWindow = 256;

// The predicated frame's occlusion queries: one per pair of draws.
constexpr std::uint32_t kPredicates = kDraws / 2;

// A Vulkan structure of the given type, every other member zero.
template <class T>
T make(VkStructureType type) {
    T made{};
    made.sType = type;
    return made;
}

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed (" + std::to_string(result) + ")");
}

VKAPI_ATTR VkBool32 VKAPI_CALL report(VkDebugUtilsMessageSeverityFlagBitsEXT,
                                      VkDebugUtilsMessageTypeFlagsEXT,
                                      const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::fprintf(stderr, "plain Vulkan baseline: %s\n", data->pMessage);
    return VK_FALSE;
}

// cb0 at set 0, binding 0: the one descriptor set the frame binds.
std::vector<std::uint32_t> to_spirv(const char* assembly) {
    const auto dxbc = runtime::shader::assemble(assembly);
    if (!dxbc.ok()) throw std::runtime_error("the shader does not assemble: " + dxbc.error);
    vkd3d_shader_resource_binding cb0{};
    cb0.type = VKD3D_SHADER_DESCRIPTOR_TYPE_CBV, cb0.binding = {0, 0, 1};
    cb0.shader_visibility = VKD3D_SHADER_VISIBILITY_VERTEX;
    cb0.flags = VKD3D_SHADER_BINDING_FLAG_BUFFER;
    vkd3d_shader_spirv_target_info target{};
    target.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    vkd3d_shader_interface_info layout{};
    layout.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO, layout.next = &target;
    layout.bindings = &cb0, layout.binding_count = 1;
    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO, info.next = &layout;
    info.source = {dxbc.container.data(), dxbc.container.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_WARNING;
    vkd3d_shader_code spirv{};
    char* messages = nullptr;
    const int result = vkd3d_shader_compile(&info, &spirv, &messages);
    const std::string text = messages ? messages : "";
    vkd3d_shader_free_messages(messages);
    if (result != VKD3D_OK) throw std::runtime_error("vkd3d-shader cannot translate it: " + text);
    const auto* words = static_cast<const std::uint32_t*>(spirv.code);
    std::vector<std::uint32_t> code(words, words + spirv.size / 4);
    vkd3d_shader_free_shader_code(&spirv);
    return code;
}

}  // namespace

struct PlainVulkanFrame::Vulkan {
    VkInstance instance{};
    VkDebugUtilsMessengerEXT messenger{};
    VkPhysicalDevice physical{};
    VkDevice device{};
    VkQueue queue{};
    std::vector<VkDeviceMemory> memories;
    VkBuffer vertices{}, constants{}, staging{};
    // The predicated frame's: one query and one 32-bit predicate per pair.
    bool conditional_rendering = false;
    PFN_vkCmdBeginConditionalRenderingEXT begin_conditional{};
    PFN_vkCmdEndConditionalRenderingEXT end_conditional{};
    VkQueryPool queries{};
    VkBuffer predicates{};
    VkImage target{};
    VkImageView view{};
    VkRenderPass pass{};
    VkFramebuffer framebuffer{};
    VkDescriptorSetLayout set_layout{};
    VkDescriptorPool descriptor_pool{};
    VkDescriptorSet set{};
    VkPipelineLayout layout{};
    VkPipeline pipelines[2]{};  // opaque, src-alpha blending
    VkCommandPool pool{};
    VkCommandBuffer commands{};
    VkFence fence{};

    void open(Device kind);
    VkBuffer buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags flags);
    VkDeviceMemory allocate(VkMemoryRequirements needs, VkMemoryPropertyFlags flags);
    void make_target();
    void upload();
    void make_pipelines();
    void make_predicates();
    void record(bool predicated);
    void submit_and_wait();

    ~Vulkan() {
        if (device) {
            vkDeviceWaitIdle(device);
            vkDestroyFence(device, fence, nullptr);
            vkDestroyQueryPool(device, queries, nullptr);
            vkDestroyCommandPool(device, pool, nullptr);
            for (VkPipeline pipeline : pipelines) vkDestroyPipeline(device, pipeline, nullptr);
            vkDestroyPipelineLayout(device, layout, nullptr);
            vkDestroyDescriptorPool(device, descriptor_pool, nullptr);
            vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
            vkDestroyFramebuffer(device, framebuffer, nullptr);
            vkDestroyRenderPass(device, pass, nullptr);
            vkDestroyImageView(device, view, nullptr);
            vkDestroyImage(device, target, nullptr);
            for (VkBuffer b : {vertices, constants, staging, predicates})
                vkDestroyBuffer(device, b, nullptr);
            for (VkDeviceMemory memory : memories) vkFreeMemory(device, memory, nullptr);
            vkDestroyDevice(device, nullptr);
        }
        if (messenger)
            reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(
                instance, "vkDestroyDebugUtilsMessengerEXT"))(instance, messenger, nullptr);
        if (instance) vkDestroyInstance(instance, nullptr);
    }
};

void PlainVulkanFrame::Vulkan::open(Device kind) {
    const char* validate = std::getenv("D3DCAP_BASELINE_VALIDATE");
    const bool validation = validate && std::strcmp(validate, "1") == 0;
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    auto messages = make<VkDebugUtilsMessengerCreateInfoEXT>(
        VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    messages.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messages.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messages.pfnUserCallback = report;
    // 1.1 for the negative-height viewport that keeps D3D's y-up orientation.
    auto app = make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
    app.pApplicationName = "d3dcap draw baseline", app.apiVersion = VK_API_VERSION_1_1;
    auto instance_info = make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
    instance_info.pApplicationInfo = &app;
    // The messenger chained as well, so that instance creation is checked too.
    if (validation) {
        instance_info.pNext = &messages;
        instance_info.enabledLayerCount = 1, instance_info.ppEnabledLayerNames = &layer;
        instance_info.enabledExtensionCount = 1, instance_info.ppEnabledExtensionNames = &extension;
    }
    check(vkCreateInstance(&instance_info, nullptr, &instance), "vkCreateInstance");
    if (validation)
        check(reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
                  vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"))(
                  instance, &messages, nullptr, &messenger),
              "vkCreateDebugUtilsMessengerEXT");

    std::uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> all(count);
    vkEnumeratePhysicalDevices(instance, &count, all.data());
    VkPhysicalDevice gpu{}, cpu{};
    for (VkPhysicalDevice candidate : all) {
        VkPhysicalDeviceProperties properties;
        vkGetPhysicalDeviceProperties(candidate, &properties);
        const VkPhysicalDeviceType type = properties.deviceType;
        if (properties.apiVersion < VK_API_VERSION_1_1) continue;
        if (!gpu && (type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ||
                     type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU))
            gpu = candidate;
        if (!cpu && type == VK_PHYSICAL_DEVICE_TYPE_CPU) cpu = candidate;
    }
    physical = kind == Device::Hardware && gpu ? gpu : cpu;
    if (!physical)
        throw std::runtime_error(kind == Device::Hardware
                                     ? "no Vulkan 1.1 GPU, nor a CPU device (lavapipe)"
                                     : "no Vulkan 1.1 CPU device (lavapipe)");

    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
    std::uint32_t family = 0;
    while (family < count && !(families[family].queueFlags & VK_QUEUE_GRAPHICS_BIT)) ++family;
    if (family == count) throw std::runtime_error("the Vulkan device has no graphics queue");
    const float priority = 1.0f;
    auto queue_info = make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
    queue_info.queueFamilyIndex = family, queue_info.queueCount = 1;
    queue_info.pQueuePriorities = &priority;
    auto device_info = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
    device_info.queueCreateInfoCount = 1, device_info.pQueueCreateInfos = &queue_info;
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
    const char* conditional = VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME;
    for (const VkExtensionProperties& offered : extensions)
        if (std::strcmp(offered.extensionName, conditional) == 0) conditional_rendering = true;
    auto feature = make<VkPhysicalDeviceConditionalRenderingFeaturesEXT>(
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT);
    feature.conditionalRendering = VK_TRUE;
    if (conditional_rendering) {
        device_info.enabledExtensionCount = 1, device_info.ppEnabledExtensionNames = &conditional;
        device_info.pNext = &feature;
    }
    check(vkCreateDevice(physical, &device_info, nullptr, &device), "vkCreateDevice");
    vkGetDeviceQueue(device, family, 0, &queue);
    if (conditional_rendering) {
        begin_conditional = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
            vkGetDeviceProcAddr(device, "vkCmdBeginConditionalRenderingEXT"));
        end_conditional = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
            vkGetDeviceProcAddr(device, "vkCmdEndConditionalRenderingEXT"));
    }

    // Transient: the pool is reset whole every frame.
    auto pool_info = make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
    pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, pool_info.queueFamilyIndex = family;
    check(vkCreateCommandPool(device, &pool_info, nullptr, &pool), "vkCreateCommandPool");
    auto buffer_info =
        make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    buffer_info.commandPool = pool, buffer_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    buffer_info.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device, &buffer_info, &commands), "vkAllocateCommandBuffers");
    const auto fence_info = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    check(vkCreateFence(device, &fence_info, nullptr, &fence), "vkCreateFence");
}

VkBuffer PlainVulkanFrame::Vulkan::buffer(VkDeviceSize size, VkBufferUsageFlags usage,
                                          VkMemoryPropertyFlags flags) {
    auto info = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
    info.size = size, info.usage = usage;
    VkBuffer made{};
    check(vkCreateBuffer(device, &info, nullptr, &made), "vkCreateBuffer");
    VkMemoryRequirements needs;
    vkGetBufferMemoryRequirements(device, made, &needs);
    check(vkBindBufferMemory(device, made, allocate(needs, flags), 0), "vkBindBufferMemory");
    return made;
}

VkDeviceMemory PlainVulkanFrame::Vulkan::allocate(VkMemoryRequirements needs,
                                                  VkMemoryPropertyFlags flags) {
    VkPhysicalDeviceMemoryProperties properties;
    vkGetPhysicalDeviceMemoryProperties(physical, &properties);
    auto info = make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
    info.allocationSize = needs.size;
    while (info.memoryTypeIndex < properties.memoryTypeCount &&
           !((needs.memoryTypeBits >> info.memoryTypeIndex & 1) &&
             (properties.memoryTypes[info.memoryTypeIndex].propertyFlags & flags) == flags))
        ++info.memoryTypeIndex;
    if (info.memoryTypeIndex == properties.memoryTypeCount)
        throw std::runtime_error("no suitable memory type");
    check(vkAllocateMemory(device, &info, nullptr, &memories.emplace_back()), "vkAllocateMemory");
    return memories.back();
}

void PlainVulkanFrame::Vulkan::make_target() {
    auto image = make<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
    image.imageType = VK_IMAGE_TYPE_2D, image.format = VK_FORMAT_R8G8B8A8_UNORM;
    image.extent = {256, 256, 1}, image.mipLevels = image.arrayLayers = 1;
    image.samples = VK_SAMPLE_COUNT_1_BIT, image.tiling = VK_IMAGE_TILING_OPTIMAL;
    image.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    check(vkCreateImage(device, &image, nullptr, &target), "vkCreateImage");
    VkMemoryRequirements needs;
    vkGetImageMemoryRequirements(device, target, &needs);
    const VkDeviceMemory memory = allocate(needs, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    check(vkBindImageMemory(device, target, memory, 0), "vkBindImageMemory");
    auto view_info = make<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
    view_info.image = target, view_info.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view_info.format = image.format;
    view_info.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(vkCreateImageView(device, &view_info, nullptr, &view), "vkCreateImageView");

    // The target stays in GENERAL; each frame loads what the last one left.
    VkAttachmentDescription attachment{};
    attachment.format = image.format, attachment.samples = VK_SAMPLE_COUNT_1_BIT;
    attachment.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    attachment.initialLayout = attachment.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
    const VkAttachmentReference colour{0, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1, subpass.pColorAttachments = &colour;
    // The last frame's colour writes come before this frame's loads and blends.
    VkSubpassDependency after_last_frame{};
    after_last_frame.srcSubpass = VK_SUBPASS_EXTERNAL;
    after_last_frame.srcStageMask = after_last_frame.dstStageMask =
        VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    after_last_frame.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    after_last_frame.dstAccessMask =
        VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    auto pass_info = make<VkRenderPassCreateInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
    pass_info.attachmentCount = 1, pass_info.pAttachments = &attachment;
    pass_info.subpassCount = 1, pass_info.pSubpasses = &subpass;
    pass_info.dependencyCount = 1, pass_info.pDependencies = &after_last_frame;
    check(vkCreateRenderPass(device, &pass_info, nullptr, &pass), "vkCreateRenderPass");
    auto frame_info = make<VkFramebufferCreateInfo>(VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
    frame_info.renderPass = pass, frame_info.attachmentCount = 1, frame_info.pAttachments = &view;
    frame_info.width = frame_info.height = 256, frame_info.layers = 1;
    check(vkCreateFramebuffer(device, &frame_info, nullptr, &framebuffer), "vkCreateFramebuffer");
}

void PlainVulkanFrame::Vulkan::make_pipelines() {
    // One dynamic uniform buffer: each draw picks its 256-byte window by offset.
    const VkDescriptorType type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    const VkDescriptorSetLayoutBinding cb0{0, type, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr};
    auto set_info =
        make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    set_info.bindingCount = 1, set_info.pBindings = &cb0;
    check(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout),
          "vkCreateDescriptorSetLayout");
    const VkDescriptorPoolSize size{type, 1};
    auto pool_info =
        make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pool_info.maxSets = 1, pool_info.poolSizeCount = 1, pool_info.pPoolSizes = &size;
    check(vkCreateDescriptorPool(device, &pool_info, nullptr, &descriptor_pool),
          "vkCreateDescriptorPool");
    auto alloc = make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    alloc.descriptorPool = descriptor_pool;
    alloc.descriptorSetCount = 1, alloc.pSetLayouts = &set_layout;
    check(vkAllocateDescriptorSets(device, &alloc, &set), "vkAllocateDescriptorSets");
    const VkDescriptorBufferInfo window{constants, 0, kWindow};
    auto write = make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    write.dstSet = set, write.descriptorCount = 1;
    write.descriptorType = type, write.pBufferInfo = &window;
    vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
    auto layout_info =
        make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layout_info.setLayoutCount = 1, layout_info.pSetLayouts = &set_layout;
    check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout), "vkCreatePipelineLayout");

    VkPipelineShaderStageCreateInfo stages[2];
    for (int i = 0; i < 2; ++i) {
        const std::vector<std::uint32_t> code = to_spirv(i == 0 ? kVs : kPs);
        auto info = make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
        info.codeSize = code.size() * 4, info.pCode = code.data();
        stages[i] = make<VkPipelineShaderStageCreateInfo>(
            VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
        stages[i].stage = i == 0 ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
        stages[i].pName = "main";
        check(vkCreateShaderModule(device, &info, nullptr, &stages[i].module),
              "vkCreateShaderModule");
    }
    const VkVertexInputBindingDescription binding{0, 8, VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription position{0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
    auto input = make<VkPipelineVertexInputStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
    input.vertexBindingDescriptionCount = 1, input.pVertexBindingDescriptions = &binding;
    input.vertexAttributeDescriptionCount = 1, input.pVertexAttributeDescriptions = &position;
    auto assembly = make<VkPipelineInputAssemblyStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    // Negative height: y up as in D3D, so that its clockwise front faces stay clockwise.
    const VkViewport viewport{0, 256, 256, -256, 0, 1};
    const VkRect2D scissor{{0, 0}, {256, 256}};
    auto viewports = make<VkPipelineViewportStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
    viewports.viewportCount = 1, viewports.pViewports = &viewport;
    viewports.scissorCount = 1, viewports.pScissors = &scissor;
    // D3D11's default rasterizer state.
    auto raster = make<VkPipelineRasterizationStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
    raster.polygonMode = VK_POLYGON_MODE_FILL, raster.cullMode = VK_CULL_MODE_BACK_BIT;
    raster.frontFace = VK_FRONT_FACE_CLOCKWISE, raster.lineWidth = 1;
    auto multisample = make<VkPipelineMultisampleStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    // draw_bench's blend states: ONE/ZERO, then colour by source alpha (alpha ONE/ZERO).
    VkPipelineColorBlendAttachmentState blend{};
    blend.srcColorBlendFactor = blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
    blend.dstColorBlendFactor = blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO;
    blend.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                           VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    auto blending = make<VkPipelineColorBlendStateCreateInfo>(
        VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
    blending.attachmentCount = 1, blending.pAttachments = &blend;
    auto info = make<VkGraphicsPipelineCreateInfo>(VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
    info.stageCount = 2, info.pStages = stages, info.pVertexInputState = &input;
    info.pInputAssemblyState = &assembly, info.pViewportState = &viewports;
    info.pRasterizationState = &raster, info.pMultisampleState = &multisample;
    info.pColorBlendState = &blending, info.layout = layout, info.renderPass = pass;
    for (int blended = 0; blended < 2; ++blended) {
        if (blended)
            blend.blendEnable = VK_TRUE, blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA,
            blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        check(vkCreateGraphicsPipelines(device, {}, 1, &info, nullptr, &pipelines[blended]),
              "vkCreateGraphicsPipelines");
    }
    for (const auto& stage : stages) vkDestroyShaderModule(device, stage.module, nullptr);
}

void PlainVulkanFrame::Vulkan::make_predicates() {
    if (!conditional_rendering) return;
    auto info = make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    info.queryType = VK_QUERY_TYPE_OCCLUSION, info.queryCount = kPredicates;
    check(vkCreateQueryPool(device, &info, nullptr, &queries), "vkCreateQueryPool");
    predicates =
        buffer(VkDeviceSize{kPredicates} * 4,
               VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
               VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
}

// The frame's windows and vertices, copied once into device-local buffers.
void PlainVulkanFrame::Vulkan::upload() {
    const std::vector<float> windows = constant_windows(), positions = triangle_vertices();
    const VkDeviceSize window_bytes = windows.size() * 4, vertex_bytes = positions.size() * 4;
    const VkBufferUsageFlags to = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const VkMemoryPropertyFlags local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    constants = buffer(window_bytes, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | to, local);
    vertices = buffer(vertex_bytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | to, local);
    staging = buffer(window_bytes + vertex_bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    void* mapped = nullptr;  // the staging buffer's memory, allocated last
    check(vkMapMemory(device, memories.back(), 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    std::memcpy(mapped, windows.data(), window_bytes);
    std::memcpy(static_cast<char*>(mapped) + window_bytes, positions.data(), vertex_bytes);
    vkUnmapMemory(device, memories.back());

    auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
    const VkBufferCopy window_copy{0, 0, window_bytes}, vertex_copy{window_bytes, 0, vertex_bytes};
    vkCmdCopyBuffer(commands, staging, constants, 1, &window_copy);
    vkCmdCopyBuffer(commands, staging, vertices, 1, &vertex_copy);
    // The target goes to GENERAL once, cleared so that the first frame loads defined texels.
    auto to_general = make<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    to_general.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_general.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    to_general.srcQueueFamilyIndex = to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_general.image = target;
    to_general.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &to_general);
    const VkClearColorValue black{};
    vkCmdClearColorImage(commands, target, VK_IMAGE_LAYOUT_GENERAL, &black, 1,
                         &to_general.subresourceRange);
    // Every later submission reads what the copies and the clear wrote.
    auto written = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    written.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    written.dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_UNIFORM_READ_BIT |
                            VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                            VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                             VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         0, 1, &written, 0, nullptr, 0, nullptr);
    submit_and_wait();
}

void PlainVulkanFrame::Vulkan::submit_and_wait() {
    check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");
    auto submit = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
    submit.commandBufferCount = 1, submit.pCommandBuffers = &commands;
    check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    check(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device, 1, &fence), "vkResetFences");
    check(vkResetCommandPool(device, pool, 0), "vkResetCommandPool");
}

PlainVulkanFrame::PlainVulkanFrame(Device device) : vk_(std::make_unique<Vulkan>()) {
    try {
        vk_->open(device);
        vk_->make_target();
        vk_->upload();
        vk_->make_pipelines();
        vk_->make_predicates();
    } catch (const std::exception& e) {
        error_ = e.what();
    }
}

PlainVulkanFrame::~PlainVulkanFrame() = default;

void PlainVulkanFrame::Vulkan::record(bool predicated) {
    auto begin = make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
    if (predicated) vkCmdResetQueryPool(commands, queries, 0, kPredicates);
    auto pass_info = make<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
    pass_info.renderPass = pass, pass_info.framebuffer = framebuffer;
    pass_info.renderArea = {{0, 0}, {256, 256}};
    // The copied result is read by the next draw's conditional rendering.
    auto copied = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    copied.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    copied.dstAccessMask = VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT;
    vkCmdBeginRenderPass(commands, &pass_info, VK_SUBPASS_CONTENTS_INLINE);
    for (unsigned draw = 0; draw < kDraws; ++draw) {
        const std::uint32_t pair = draw / 2;
        if (predicated && draw % 2 == 1) {
            vkCmdEndRenderPass(commands);
            vkCmdCopyQueryPoolResults(commands, queries, pair, 1, predicates, pair * 4, 4,
                                      VK_QUERY_RESULT_WAIT_BIT);
            vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT, 0, 1, &copied, 0,
                                 nullptr, 0, nullptr);
            vkCmdBeginRenderPass(commands, &pass_info, VK_SUBPASS_CONTENTS_INLINE);
        }
        if (draw % 16 == 0)
            vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS,
                              pipelines[(draw / 16) % 2]);
        if (draw % 64 == 0) {
            const VkDeviceSize offset = (draw / 64) % 64 * 24;
            vkCmdBindVertexBuffers(commands, 0, 1, &vertices, &offset);
        }
        const std::uint32_t window = (draw % 256) * kWindow;
        vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 1,
                                &window);
        if (predicated && draw % 2 == 0) vkCmdBeginQuery(commands, queries, pair, 0);
        if (predicated && draw % 2 == 1) {
            auto condition = make<VkConditionalRenderingBeginInfoEXT>(
                VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT);
            condition.buffer = predicates, condition.offset = pair * 4;
            begin_conditional(commands, &condition);
        }
        vkCmdDraw(commands, 3, 1, 0, 0);
        if (predicated && draw % 2 == 0) vkCmdEndQuery(commands, queries, pair);
        if (predicated && draw % 2 == 1) end_conditional(commands);
    }
    vkCmdEndRenderPass(commands);
    submit_and_wait();
}

bool PlainVulkanFrame::frame() try {
    vk_->record(false);
    return true;
} catch (const std::exception& e) {
    error_ = e.what();
    return false;
}

bool PlainVulkanFrame::predicated_frame() try {
    if (!vk_->conditional_rendering)
        throw std::runtime_error("the device has no VK_EXT_conditional_rendering");
    vk_->record(true);
    return true;
} catch (const std::exception& e) {
    error_ = e.what();
    return false;
}

}  // namespace d3dcap::bench
